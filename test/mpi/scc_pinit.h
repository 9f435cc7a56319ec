/* scc_pinit.h: the persistent collectives' names where the MPI has them -- MPI 4's
 * MPI_Bcast_init (Open MPI 5 has them while it reports MPI 3.1), else Open MPI 4.1's pcollreq
 * extension (MPIX_Bcast_init): SCC_PINIT(Bcast), and SCC_HAVE_PERSISTENT 1 or 0. */
#ifndef SCC_PINIT_H
#define SCC_PINIT_H

#include <mpi.h>
#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define SCC_MPI4_PERSISTENT 1
#else
#include <mpi-ext.h>
#endif

#if defined(SCC_MPI4_PERSISTENT)
#define SCC_PINIT(name) MPI_##name##_init
#define SCC_HAVE_PERSISTENT 1
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define SCC_PINIT(name) MPIX_##name##_init
#define SCC_HAVE_PERSISTENT 1
#else
#define SCC_HAVE_PERSISTENT 0
#endif

#endif /* SCC_PINIT_H */
