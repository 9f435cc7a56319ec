# scc_pmix.m4: find PMIx. Open MPI 5 includes pmix.h from its own headers, and
# Debian keeps it outside mpicc's include path (/usr/lib/<triplet>/pmix2/include).
#
# SCC_SETUP_PMIX sets and substitutes PMIX_CPPFLAGS.

AC_DEFUN([SCC_SETUP_PMIX], [
    AC_ARG_WITH([pmix],
        [AS_HELP_STRING([--with-pmix=PREFIX], [installation prefix of PMIx (default: pkg-config, then the system)])])
    PMIX_CPPFLAGS=""
    AS_IF([test -n "$with_pmix" && test "$with_pmix" != "yes" && test "$with_pmix" != "no"],
          [PMIX_CPPFLAGS="-I$with_pmix/include"],
          [PKG_CHECK_MODULES([PMIX_PC], [pmix], [PMIX_CPPFLAGS="$PMIX_PC_CFLAGS"], [:])])
    scc_save_CPPFLAGS="$CPPFLAGS"
    CPPFLAGS="$CPPFLAGS $PMIX_CPPFLAGS"
    AC_CHECK_HEADER([pmix.h], [scc_have_pmix=yes], [scc_have_pmix=no])
    CPPFLAGS="$scc_save_CPPFLAGS"
    AS_IF([test "$scc_have_pmix" = "no" && test "$OMPI_SERIES" != "4.1"],
          [AC_MSG_ERROR([pmix.h not found; Open MPI $OMPI_SERIES needs it (Debian/Ubuntu: apt-get install libpmix-dev, or --with-pmix=PREFIX)])])
    # 4.1 wraps PMIx in its own opal/mca/pmix API: keep the external headers out of its way
    AS_IF([test "$OMPI_SERIES" = "4.1"], [PMIX_CPPFLAGS=""])
    AC_SUBST([PMIX_CPPFLAGS])
])
