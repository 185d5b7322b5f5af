# `make coverage` (tests/coverage/README.md): the library and the unit tests
# built again with gcc --coverage in build/cov/, the unit tests run, then the
# integration tests with a libpapi.so whose intel_uncore library is that
# build (build/cov/papi, relinked as build/papi-asan is; found first through
# LD_LIBRARY_PATH), and tests/coverage/report.py prints the line coverage of
# src/ from gcov's JSON, with every function never run in
# src/bind/component.c and src/access/.  COVERAGE_INTEGRATION=0: unit tests
# only.  Included by the top-level Makefile.
COV         := $(BUILD)/cov
COVFLAGS    := -std=gnu11 -g -O0 --coverage -fPIC -fvisibility=hidden $(WARNFLAGS)
COV_OBJS    := $(patsubst $(BUILD)/obj/%,$(COV)/obj/%,$(LIB_OBJS))
COV_SOBJS   := $(patsubst $(srcdir)/%.c,$(COV)/obj/%.o,$(SUPPORT_SRCS))
COV_A       := $(COV)/lib/libintel_uncore_cov.a
COV_BINS    := $(patsubst $(srcdir)/tests/%.c,$(COV)/tests/%,$(UNIT_SRCS))
# The floor the acceptance of issue 24 sets; COVERAGE_MIN=0 only reports.
COVERAGE_MIN ?= 92

$(COV)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(call quiet,COV,$<)$(CC) $(COVFLAGS) $(CPPFLAGS_IU) -MMD -MP -c $< -o $@

$(COV)/obj/%.o: $(srcdir)/%.c
	@mkdir -p $(@D)
	$(call quiet,COV,$<)$(CC) $(COVFLAGS) $(CPPFLAGS_IU) -MMD -MP -c $< -o $@

$(COV_A): $(COV_OBJS)
	@mkdir -p $(@D)
	$(call quiet,AR,$@)rm -f $@ && ar rcs $@ $^

$(COV)/tests/%: $(srcdir)/tests/%.c $(COV_SOBJS) $(COV_A)
	@mkdir -p $(@D)
	$(call quiet,COV,$<)$(CC) $(COVFLAGS) $(CPPFLAGS_IU) -MMD -MP $< $(COV_SOBJS) $(COV_A) $(LIBS_IU) -o $@

.SECONDARY: $(COV_SOBJS)

COV_RELOC := $(COV)/lib/intel_uncore_lib_cov.o
PAPI_COV  := $(COV)/papi
COVERAGE_INTEGRATION ?= 1

$(COV_RELOC): $(COV_OBJS)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)ld -r -o $@ $^

# libgcov is linked into libpapi.so: the instrumented objects call it.
$(PAPI_COV)/.built: $(PAPI_WORK)/.built $(COV_RELOC) $(COMPONENT_FILES) $(PUBLIC_HEADERS) $(srcdir)/scripts/sync-component.sh
	@echo "== papi-uncore: libpapi.so with the coverage build of the component (log: $(PAPI_COV)/build.log)"
	rm -rf $(PAPI_COV) && cp -a $(PAPI_WORK) $(PAPI_COV)
	$(srcdir)/scripts/sync-component.sh $(srcdir) $(COV_RELOC) $(PAPI_COV)/src/components/intel_uncore
	rm -f $(PAPI_COV)/src/libpapi.so*
	$(MAKE) -C $(PAPI_COV)/src 'SHLIBDEPS=-Bdynamic -L$$(PFM_LIB_PATH) -lpfm -Wl,--exclude-libs,libpfm.a -lgcov' \
	  'CC_SHR=$$(CC) -fPIC -DPIC -shared -Wl,-soname -Wl,$$(VLIB)' shared > $(PAPI_COV)/build.log 2>&1 || \
	  { tail -40 $(PAPI_COV)/build.log; echo "the coverage libpapi failed; full log: $(PAPI_COV)/build.log"; exit 1; }
	touch $@

# What make check-integration builds (INTEGRATION_DEPS; mpi/mpi.mk adds the
# MPI test programs to coverage as to check-integration).
COV_INTEGRATION_DEPS := $(if $(filter 1,$(COVERAGE_INTEGRATION)),$(PAPI_COV)/.built $(INTEGRATION_DEPS))

# Counts start from zero at every run; the tests' verdicts are printed but a
# failing test does not stop the report (make check is the test command).
coverage: $(COV_BINS) $(COV_INTEGRATION_DEPS)
	@find $(COV) -name '*.gcda' -delete
	@BUILD=$(BUILD) SRCDIR=$(srcdir) TEST_LOG_DIR=$(COV)/test-logs $(srcdir)/tests/run-tests.sh --unit "$(COV_BINS)" \
	  > $(COV)/tests.log 2>&1; tail -1 $(COV)/tests.log | sed 's/^/== unit tests under coverage: /'
	@$(PYTHON3) $(srcdir)/tests/coverage/report.py --objects $(COV)/obj --src $(srcdir) --summary "the unit tests"
ifeq ($(COVERAGE_INTEGRATION),1)
	@GCOV_ERROR_FILE=/dev/null LD_LIBRARY_PATH=$(PAPI_COV)/src BUILD=$(BUILD) STAGE=$(STAGE) SRCDIR=$(srcdir) PYTHON3=$(PYTHON3) \
	  TEST_LOG_DIR=$(COV)/test-logs $(srcdir)/tests/run-tests.sh --integration "$(INTEGRATION_TESTS)" \
	  > $(COV)/integration.log 2>&1; tail -1 $(COV)/integration.log | sed 's/^/== integration tests under coverage: /'
endif
	@$(PYTHON3) $(srcdir)/tests/coverage/report.py --objects $(COV)/obj --src $(srcdir) --min $(COVERAGE_MIN) \
	  --all-functions src/bind/component.c --all-functions src/access/ \
	  --summary "$(if $(filter 1,$(COVERAGE_INTEGRATION)),the unit and integration tests,the unit tests)"
