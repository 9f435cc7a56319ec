/* coll_scc_config.c: the component's settings (the values of its MCA parameters), its help
 * messages and parameter registration -- a leaf that every layer may use without reaching
 * the component structure, whose functions reach every layer. */
#include "coll_scc_component.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/show_help.h"

mca_coll_scc_config_t mca_coll_scc_config = {
    .priority = 40,
    .verbose = 0,
    .output = -1,
};

const char *mca_coll_scc_component_version_string =
    "Open MPI scc collective MCA component version " OMPI_VERSION;

/* Open MPI 4.1 relays an application's first opal_show_help() through PMIx_Log,
 * which can garble it on the way to mpirun ("Data unpack would read past end of
 * buffer in show_help.c", open-mpi/ompi#8356) and lose the message.  The
 * component's messages are rare (once per problem and process), so each is
 * rendered from the help file here and written to stderr directly. */
static void scc_show_help_v(const char *topic, va_list ap)
{
    char *msg = opal_show_help_vstring("help-coll-scc.txt", topic, true, ap);
    if (NULL != msg) {
        fprintf(stderr, "%s", msg);
        fflush(stderr);
        free(msg);
    }
}

void mca_coll_scc_show_help(const char *topic, ...)
{
    va_list ap;
    va_start(ap, topic);
    scc_show_help_v(topic, ap);
    va_end(ap);
}

void mca_coll_scc_show_help_once(int comm_rank, const char *topic, ...)
{
    static const char *shown[32];
    static int nshown;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    bool show = 0 == comm_rank;
    va_list ap;

    pthread_mutex_lock(&lock);
    for (int i = 0; show && i < nshown; ++i) {
        show = 0 != strcmp(shown[i], topic);
    }
    if (show && nshown < (int) (sizeof(shown) / sizeof(shown[0]))) {
        shown[nshown++] = topic;
    }
    pthread_mutex_unlock(&lock);
    if (show) {
        va_start(ap, topic);
        scc_show_help_v(topic, ap);
        va_end(ap);
    }
}

/* An int parameter of the component, READONLY, set to dflt before Open MPI reads its value. */
void mca_coll_scc_reg_int(const char *name, const char *desc, int level, int *storage, int dflt)
{
    *storage = dflt;
    (void) mca_base_component_var_register(mca_coll_scc_config.version, name,
                                           desc, MCA_BASE_VAR_TYPE_INT, NULL, 0, 0,
                                           (mca_base_var_info_lvl_t) level,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
}

/* A string parameter of the component, READONLY, set to dflt before Open MPI reads it. */
void mca_coll_scc_reg_string(const char *name, const char *desc, int level, char **storage,
                             const char *dflt)
{
    *storage = (char *) dflt;
    (void) mca_base_component_var_register(mca_coll_scc_config.version, name,
                                           desc, MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, level,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
}

/* An enum parameter of the component (values v), READONLY at level 4, set to dflt. */
void mca_coll_scc_reg_enum(const char *name, const char *desc, const mca_base_var_enum_value_t *v,
                           int *storage, int dflt)
{
    mca_base_var_enum_t *e = NULL;
    char ename[64];

    snprintf(ename, sizeof(ename), "coll_scc_%s", name);
    (void) mca_base_var_enum_create(ename, v, &e);
    *storage = dflt;
    (void) mca_base_component_var_register(mca_coll_scc_config.version, name,
                                           desc, MCA_BASE_VAR_TYPE_INT, e, 0, 0, OPAL_INFO_LVL_4,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
    if (NULL != e) {
        OBJ_RELEASE(e);
    }
}
