/* fint_2_int.h (coll/scc shim): Debian's libopenmpi-dev 4.1 lacks this header, which
 * ompi/op/op.h includes for one conversion; it is used only where the installation lacks it. */
#ifndef SCC_SHIM_FINT_2_INT_H
#define SCC_SHIM_FINT_2_INT_H

#include <mpi.h>

/* MPI_Fint is a C int on every platform Debian builds Open MPI for. */
#define OMPI_INT_2_FINT(a) ((MPI_Fint) (a))
#define OMPI_FINT_2_INT(a) ((int) (a))

#endif
