# scc_hwloc.m4: find hwloc (the component reads process bindings and domains from it).
#
# SCC_SETUP_HWLOC sets and substitutes HWLOC_CPPFLAGS, HWLOC_LIBS.

AC_DEFUN([SCC_SETUP_HWLOC], [
    AC_ARG_WITH([hwloc],
        [AS_HELP_STRING([--with-hwloc=PREFIX], [installation prefix of hwloc (default: pkg-config, then the system)])])
    HWLOC_CPPFLAGS=""
    HWLOC_LIBS=""
    AS_IF([test -n "$with_hwloc" && test "$with_hwloc" != "yes" && test "$with_hwloc" != "no"],
          [HWLOC_CPPFLAGS="-I$with_hwloc/include"
           HWLOC_LIBS="-L$with_hwloc/lib -lhwloc"],
          [PKG_CHECK_MODULES([HWLOC_PC], [hwloc >= 2.0],
              [HWLOC_CPPFLAGS="$HWLOC_PC_CFLAGS"; HWLOC_LIBS="$HWLOC_PC_LIBS"],
              [HWLOC_LIBS="-lhwloc"])])
    scc_save_CPPFLAGS="$CPPFLAGS"; scc_save_LIBS="$LIBS"
    CPPFLAGS="$CPPFLAGS $HWLOC_CPPFLAGS"; LIBS="$LIBS $HWLOC_LIBS"
    AC_CHECK_HEADER([hwloc.h], [],
        [AC_MSG_ERROR([hwloc.h not found. Debian/Ubuntu: apt-get install libhwloc-dev, or pass --with-hwloc=PREFIX])])
    AC_MSG_CHECKING([for hwloc 2.x])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <hwloc.h>
#if HWLOC_API_VERSION < 0x00020000
#error hwloc 1.x
#endif]], [[hwloc_topology_t t; hwloc_topology_init(&t); hwloc_topology_destroy(t);]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([hwloc 2.x is required (Debian/Ubuntu: apt-get install libhwloc-dev)])])
    CPPFLAGS="$scc_save_CPPFLAGS"; LIBS="$scc_save_LIBS"
    AC_SUBST([HWLOC_CPPFLAGS])
    AC_SUBST([HWLOC_LIBS])
])
