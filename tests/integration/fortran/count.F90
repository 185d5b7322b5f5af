! A free-form Fortran program (.F90, preprocessed) counting one uncore event
! through PAPI: it includes f90papi.h (fpapi.h is for fixed form); built and
! run by test_fortran.sh on the simulator.
program count
  implicit none
#include "f90papi.h"
  integer :: ret, es, code
  integer(kind=8) :: values(1)
  character(len=64) :: ev = 'hswep_unc_imc::UNC_M_CAS_COUNT:RD'
  ret = PAPI_VER_CURRENT
  call PAPIF_library_init(ret)
  if (ret /= PAPI_VER_CURRENT) stop 1
  es = PAPI_NULL
  call PAPIF_create_eventset(es, ret)
  call PAPIF_event_name_to_code(ev, code, ret)
  if (ret /= PAPI_OK) stop 2
  call PAPIF_add_event(es, code, ret)
  if (ret /= PAPI_OK) stop 3
  call PAPIF_start(es, ret)
  call sleep(1)
  call PAPIF_stop(es, values, ret)
  if (ret /= PAPI_OK) stop 4
  print '(A,1X,I0)', trim(ev), values(1)
end program count
