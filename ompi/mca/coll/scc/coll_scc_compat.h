/* coll_scc_compat.h: the differences between the coll frameworks of Open MPI 4.1 and 5.0, in one place. */
#ifndef MCA_COLL_SCC_COMPAT_H
#define MCA_COLL_SCC_COMPAT_H

#include "ompi_config.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"

#if OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1
#define SCC_OMPI_4 1
#elif OMPI_MAJOR_VERSION == 5 && OMPI_MINOR_VERSION == 0
#define SCC_OMPI_5 1
#else
#error "coll/scc supports Open MPI 4.1 and 5.0"
#endif

#if SCC_OMPI_4
#define SCC_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
typedef mca_coll_base_component_2_0_0_t scc_coll_component_t;
#define SCC_COMM_CID(comm) ((unsigned) (comm)->c_contextid)
#define SCC_YIELD_WHEN_IDLE() (opal_progress_yield_when_idle)
#else
#define SCC_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
typedef mca_coll_base_component_2_4_0_t scc_coll_component_t;
#define SCC_COMM_CID(comm) ((unsigned) ompi_comm_get_local_cid(comm))
#define SCC_YIELD_WHEN_IDLE() (opal_progress_yield_when_idle)
#endif

#define SCC_COMM_NAME(comm) ((comm)->c_name)

#endif /* MCA_COLL_SCC_COMPAT_H */
