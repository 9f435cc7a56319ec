# scc_ompi.m4: find an installed Open MPI with its development headers, tell its series and coll API.
#
# SCC_SETUP_OMPI finds the installation and its version; SCC_SETUP_OMPI_HEADERS
# (after hwloc and PMIx, which the 5.0 headers include) checks that a component
# compiles against it, with the help of a source tree where the installation
# lacks headers.  Together they set and substitute:
#   OMPI_CPPFLAGS   include flags for ompi_config.h, ompi/mca/coll/coll.h, mpi.h
#   OMPI_LDFLAGS    -L flags for libmpi and libopen-pal
#   OMPI_LIBS       the libraries a component links with
#   OMPI_PKGLIBDIR  where that Open MPI loads its components from
#   OMPI_DATADIR    where that Open MPI keeps its help files
#   OMPI_BINDIR     directory of mpirun / ompi_info
#   OMPI_VERSION_STRING, OMPI_SERIES ("4.1", "5.0"), OMPI_COLL_API ("2.0.0", "2.4.0")
#   OMPI_SOURCE     the source tree used for missing headers (empty: none)

AC_DEFUN([SCC_SETUP_OMPI], [
    AC_ARG_WITH([ompi],
        [AS_HELP_STRING([--with-ompi=PREFIX],
            [installation prefix of Open MPI (default: the Open MPI of the mpicc found in PATH)])])
    AC_ARG_WITH([ompi-source],
        [AS_HELP_STRING([--with-ompi-source=DIR],
            [the Open MPI source tree of the installed version (configured or not), for the headers
             an installation lacks (Debian 13's Open MPI 5.0.7: apt-get source openmpi, or
             scripts/ompi-source.sh)])])

    AS_IF([test -n "$with_ompi" && test "$with_ompi" != "yes" && test "$with_ompi" != "no"],
          [scc_mpicc="$with_ompi/bin/mpicc"
           AS_IF([test ! -x "$scc_mpicc"],
                 [AC_MSG_ERROR([--with-ompi=$with_ompi: $scc_mpicc not found or not executable])])],
          [AC_PATH_PROG([scc_mpicc], [mpicc], [no])
           AS_IF([test "$scc_mpicc" = "no"],
                 [AC_MSG_ERROR([mpicc not found. Install Open MPI with its development headers
                  (Debian/Ubuntu: apt-get install libopenmpi-dev openmpi-bin) or pass --with-ompi=PREFIX])])])

    AC_MSG_CHECKING([whether $scc_mpicc is Open MPI])
    AS_IF([$scc_mpicc --showme:version 2>&1 | grep -q "Open MPI"],
          [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([no])
           AC_MSG_ERROR([$scc_mpicc is not Open MPI's wrapper compiler; coll/scc is an Open MPI component])])

    OMPI_BINDIR=`dirname "$scc_mpicc"`
    scc_incdirs=`$scc_mpicc --showme:incdirs`
    scc_libdirs=`$scc_mpicc --showme:libdirs`

    # The development headers sit in <includedir>/openmpi (Debian, --with-devel-headers)
    scc_ompi_hdr=""
    for d in $scc_incdirs; do
        for sub in "" /openmpi; do
            AS_IF([test -z "$scc_ompi_hdr" && test -f "$d$sub/ompi/mca/coll/coll.h" && test -f "$d$sub/ompi_config.h"],
                  [scc_ompi_hdr="$d$sub"])
        done
    done
    AS_IF([test -z "$scc_ompi_hdr"],
          [AC_MSG_ERROR([Open MPI's development headers (ompi/mca/coll/coll.h, ompi_config.h) were not found
                  under: $scc_incdirs
                  Install them (Debian/Ubuntu: apt-get install libopenmpi-dev) or pass --with-ompi=PREFIX
                  for an Open MPI configured with --with-devel-headers])])
    OMPI_CPPFLAGS="-I$scc_ompi_hdr"
    for d in $scc_incdirs; do
        OMPI_CPPFLAGS="$OMPI_CPPFLAGS -I$d"
    done
    OMPI_LDFLAGS=""
    for d in $scc_libdirs; do
        OMPI_LDFLAGS="$OMPI_LDFLAGS -L$d"
    done

    # Version of the installation the component will be loaded into (mpi.h alone compiles everywhere)
    scc_save_CPPFLAGS="$CPPFLAGS"
    CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"
    AC_COMPUTE_INT([scc_ompi_major], [OMPI_MAJOR_VERSION], [#include <mpi.h>],
                   [AC_MSG_ERROR([cannot read OMPI_MAJOR_VERSION from mpi.h])])
    AC_COMPUTE_INT([scc_ompi_minor], [OMPI_MINOR_VERSION], [#include <mpi.h>],
                   [AC_MSG_ERROR([cannot read OMPI_MINOR_VERSION from mpi.h])])
    AC_COMPUTE_INT([scc_ompi_release], [OMPI_RELEASE_VERSION], [#include <mpi.h>],
                   [AC_MSG_ERROR([cannot read OMPI_RELEASE_VERSION from mpi.h])])
    CPPFLAGS="$scc_save_CPPFLAGS"
    OMPI_VERSION_STRING="$scc_ompi_major.$scc_ompi_minor.$scc_ompi_release"
    OMPI_SERIES="$scc_ompi_major.$scc_ompi_minor"
    AC_MSG_CHECKING([Open MPI version])
    AC_MSG_RESULT([$OMPI_VERSION_STRING])
    AS_CASE([$OMPI_SERIES],
        [4.1], [],
        [5.0], [],
        [AC_MSG_ERROR([Open MPI $OMPI_VERSION_STRING is not supported: coll/scc builds against the 4.1 and 5.0 series])])

    # The coll framework API, read from the header text (the headers may not compile yet)
    AC_MSG_CHECKING([Open MPI coll framework API])
    OMPI_COLL_API=""
    for v in 2_4_0 2_0_0; do
        AS_IF([test -z "$OMPI_COLL_API" && grep -q "define MCA_COLL_BASE_VERSION_$v" "$scc_ompi_hdr/ompi/mca/coll/coll.h"],
              [OMPI_COLL_API=`echo $v | tr _ .`])
    done
    AC_MSG_RESULT([${OMPI_COLL_API:-unknown}])
    AS_CASE([$OMPI_SERIES:$OMPI_COLL_API],
        [4.1:2.0.0], [],
        [5.0:2.4.0], [],
        [AC_MSG_ERROR([Open MPI $OMPI_VERSION_STRING has coll API ${OMPI_COLL_API:-unknown} in
                  $scc_ompi_hdr/ompi/mca/coll/coll.h; coll/scc knows 4.1 with API 2.0.0 and 5.0 with
                  API 2.4.0 (ompi/mca/coll/scc/coll_scc_compat.h)])])

    # Libraries: libmpi and the OPAL library it is built on (4.x also has ORTE)
    OMPI_LIBS="-lmpi -lopen-pal"
    AS_IF([test "$scc_ompi_major" = "4"], [OMPI_LIBS="$OMPI_LIBS -lopen-rte"])

    # Where that Open MPI looks for components and help files
    AC_PATH_PROG([scc_ompi_info], [ompi_info], [no], [$OMPI_BINDIR$PATH_SEPARATOR$PATH])
    OMPI_PKGLIBDIR=""
    OMPI_DATADIR=""
    AS_IF([test "$scc_ompi_info" != "no"],
          [OMPI_PKGLIBDIR=`$scc_ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p'`
           OMPI_DATADIR=`$scc_ompi_info --path pkgdatadir --parsable 2>/dev/null | sed -n 's/^path:pkgdatadir://p'`])
    AS_IF([test -z "$OMPI_PKGLIBDIR"],
          [set dummy $scc_libdirs; OMPI_PKGLIBDIR="$[2]/openmpi"])
    AC_MSG_CHECKING([Open MPI component directory])
    AC_MSG_RESULT([$OMPI_PKGLIBDIR])

    # For the MPI test programs and benchmarks
    MPICC="$scc_mpicc"
    MPI_CFLAGS=`$scc_mpicc --showme:compile`
    MPI_LIBS=`$scc_mpicc --showme:link`
    AC_SUBST([MPICC])
    AC_SUBST([MPI_CFLAGS])
    AC_SUBST([MPI_LIBS])

    AC_DEFINE_UNQUOTED([SCC_OMPI_VERSION_STRING], ["$OMPI_VERSION_STRING"],
                       [Open MPI version the component was built against])
    AC_SUBST([OMPI_LDFLAGS])
    AC_SUBST([OMPI_LIBS])
    AC_SUBST([OMPI_PKGLIBDIR])
    AC_SUBST([OMPI_DATADIR])
    AC_SUBST([OMPI_BINDIR])
    AC_SUBST([OMPI_VERSION_STRING])
    AC_SUBST([OMPI_SERIES])
    AC_SUBST([OMPI_COLL_API])
])

# SCC_SETUP_OMPI_HEADERS: after SCC_SETUP_OMPI, SCC_SETUP_HWLOC and SCC_SETUP_PMIX.
# The installation's headers come first; a source tree (--with-ompi-source) only
# fills in what the installation lacks (-idirafter), so a configured or an
# unconfigured tree both work and never shadow the installed configuration.
AC_DEFUN([SCC_SETUP_OMPI_HEADERS], [
    # Implementation headers the installed configuration names but the installation lacks:
    # Debian 13's 5.0.7 misses opal/mca/threads/pthreads/* (which every OPAL header needs) and
    # opal/mca/timer/linux/timer_linux.h; Debian 12's 4.1.4 misses the latter, which no coll
    # header includes.  The compile check below decides whether the missing ones matter.
    scc_missing=""
    for h in `sed -n 's/^#define MCA_@<:@A-Za-z0-9_@:>@*_HEADER "\(@<:@^"@:>@@<:@^"@:>@*\)".*/\1/p' \
                  "$scc_ompi_hdr/opal_config.h" "$scc_ompi_hdr/ompi_config.h" 2>/dev/null | sort -u`; do
        AS_IF([test ! -f "$scc_ompi_hdr/$h"], [scc_missing="$scc_missing $h"])
    done
    AC_MSG_CHECKING([for headers the Open MPI installation lacks])
    AC_MSG_RESULT([${scc_missing:-none}])

    OMPI_SOURCE=""
    AS_IF([test -n "$with_ompi_source" && test "$with_ompi_source" != "no" && test "$with_ompi_source" != "yes"],
          [OMPI_SOURCE=`cd "$with_ompi_source" 2>/dev/null && pwd`
           AS_IF([test -z "$OMPI_SOURCE" || test ! -f "$OMPI_SOURCE/VERSION" || test ! -d "$OMPI_SOURCE/opal"],
                 [AC_MSG_ERROR([--with-ompi-source=$with_ompi_source is not an Open MPI source tree (no VERSION, opal/)])])
           AC_MSG_CHECKING([version of the Open MPI source tree $OMPI_SOURCE])
           scc_src_version=`sed -n 's/^major=//p;s/^minor=//p;s/^release=//p' "$OMPI_SOURCE/VERSION" | tr '\n' . | sed 's/\.$//'`
           AC_MSG_RESULT([$scc_src_version])
           AS_IF([test "$scc_src_version" != "$OMPI_VERSION_STRING"],
                 [AC_MSG_ERROR([the source tree $OMPI_SOURCE is Open MPI $scc_src_version but the installation
                  is $OMPI_VERSION_STRING: its headers must come from the same version])])
           for h in $scc_missing; do
               AS_IF([test ! -f "$OMPI_SOURCE/$h"],
                     [AC_MSG_ERROR([the source tree $OMPI_SOURCE has no $h either])])
           done
           OMPI_CPPFLAGS="$OMPI_CPPFLAGS -idirafter $OMPI_SOURCE"])

    scc_save_CPPFLAGS="$CPPFLAGS"
    CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS $HWLOC_CPPFLAGS $PMIX_CPPFLAGS"

    # Debian's 4.1 headers lack ompi/mpi/fortran/base/fint_2_int.h, which ompi/op/op.h
    # includes (a source tree has it): shim/ provides it where nothing else does.
    AC_MSG_CHECKING([whether ompi/op/op.h compiles])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "ompi_config.h"
#include "ompi/op/op.h"
]], [[ (void) ompi_op_is_commute; ]])],
        [AC_MSG_RESULT([yes])],
        [CPPFLAGS="$CPPFLAGS -idirafter $srcdir/shim"
         AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "ompi_config.h"
#include "ompi/op/op.h"
]], [[ (void) ompi_op_is_commute; ]])],
            [AC_MSG_RESULT([with coll/scc's shim for missing headers])
             OMPI_CPPFLAGS="$OMPI_CPPFLAGS -idirafter \$(top_srcdir)/shim"],
            [AC_MSG_RESULT([no])
             AC_MSG_ERROR([ompi/op/op.h of Open MPI $OMPI_VERSION_STRING does not compile (see config.log)])])])

    AC_MSG_CHECKING([whether the Open MPI coll framework headers compile])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "ompi_config.h"
#include "opal/util/output.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/coll/base/coll_tags.h"
]], [[ mca_coll_base_module_t *m = 0; (void) m; ]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AS_IF([test -n "$scc_missing" && test -z "$OMPI_SOURCE"],
               [AC_MSG_ERROR([the Open MPI $OMPI_VERSION_STRING installation under $scc_ompi_hdr lacks headers
                  that its own opal_config.h includes:$scc_missing
                  and a component cannot compile against it alone (see config.log). Give the source
                  tree of the same version:
                      scripts/ompi-source.sh DIR          (Debian: fetches and unpacks the source package)
                      ./configure --with-ompi-source=DIR/openmpi-$OMPI_VERSION_STRING
                  (by hand: apt-get source openmpi=<the version of libopenmpi-dev>, with a deb-src line)])],
               [AC_MSG_ERROR([the Open MPI $OMPI_VERSION_STRING headers under $scc_ompi_hdr do not compile
                  (see config.log). Debian/Ubuntu: apt-get install libopenmpi-dev libhwloc-dev libpmix-dev;
                  for an installation with incomplete headers, pass --with-ompi-source=DIR (the
                  source tree of the same version; scripts/ompi-source.sh fetches Debian's)])])])
    CPPFLAGS="$scc_save_CPPFLAGS"
    AC_SUBST([OMPI_CPPFLAGS])
    AC_SUBST([OMPI_SOURCE])
])
