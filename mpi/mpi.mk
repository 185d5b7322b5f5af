# libpapi_uncore_mpi.so, the PMPI library (mpi/, README "MPI jobs and
# threads"), and the MPI test programs (tests/integration/mpi/*.c), built
# with mpicc when MPI is installed (scripts/install-deps.sh installs Open
# MPI).  The library links the staged libpapi by an absolute RUNPATH
# (stage/lib here, <prefix>/lib when installed, relinked by make install)
# and our library for the metric groups.
MPICC ?= mpicc
HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
MPI_SRCS   := $(sort $(wildcard $(srcdir)/mpi/*.c))
MPI_HDRS   := $(sort $(wildcard $(srcdir)/mpi/*.h))

ifeq ($(HAVE_MPICC),yes)
MPI_LIB          := $(BUILD)/mpi/libpapi_uncore_mpi.so
MPI_INSTALL_LIB  := $(BUILD)/install-mpi/libpapi_uncore_mpi.so
MPITEST_SRCS     := $(sort $(wildcard $(srcdir)/tests/integration/mpi/*.c))
MPITEST_BINS     := $(patsubst $(srcdir)/tests/integration/mpi/%.c,$(BUILD)/mpitests/%,$(MPITEST_SRCS))

link_mpi_lib = $(MPICC) $(BASEFLAGS) -shared $(CPPFLAGS_IU) -I$(srcdir)/mpi -isystem $(STAGE)/include \
	  $(MPI_SRCS) $(LIB_A) -L$(STAGE)/lib -lpapi -Wl,-rpath,$(1) $(LIBS_IU) -o $@

$(MPI_LIB): $(MPI_SRCS) $(MPI_HDRS) $(LIB_A) $(BUILD)/papi/.staged
	@mkdir -p $(@D)
	$(call quiet,MPI,$@)$(call link_mpi_lib,$(STAGE)/lib)

$(MPI_INSTALL_LIB): $(MPI_SRCS) $(MPI_HDRS) $(LIB_A) $(BUILD)/papi/.staged FORCE
	@mkdir -p $(@D)
	$(call quiet,MPI,$@)$(call link_mpi_lib,$(prefix)/lib)

$(STAGE)/lib/libpapi_uncore_mpi.so: $(MPI_LIB)
	cp $< $@
	cp $(srcdir)/mpi/papi_uncore_mpi.h $(STAGE)/include/

$(MPITEST_BINS): $(BUILD)/mpitests/%: $(srcdir)/tests/integration/mpi/%.c $(BUILD)/papi/.staged $(MPI_LIB)
	@mkdir -p $(@D)
	$(call quiet,MPITEST,$<)$(MPICC) -std=gnu11 -g -O2 $(WARNFLAGS) -isystem $(STAGE)/include \
	  -I$(srcdir)/mpi $< -L$(STAGE)/lib -lpapi -Wl,-rpath,$(STAGE)/lib -o $@

stage: $(STAGE)/lib/libpapi_uncore_mpi.so
check check-integration $(if $(filter 1,$(COVERAGE_INTEGRATION)),coverage): $(MPITEST_BINS)
endif
