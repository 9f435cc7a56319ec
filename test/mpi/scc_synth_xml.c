/* scc_synth_xml.c: writes the hwloc XML of a synthetic description (a test/topologies .synth
 * file), for Open MPI's hwloc_base_topo_file -- what `lstopo --input "..." file.xml` does,
 * without needing the hwloc tools.
 *
 *   scc_synth_xml FILE.synth OUT.xml
 */
#include <stdio.h>
#include <string.h>

#include <hwloc.h>

int main(int argc, char **argv)
{
    char line[512], desc[512] = "";
    hwloc_topology_t t;
    FILE *f;

    if (3 != argc) {
        fprintf(stderr, "usage: %s FILE.synth OUT.xml\n", argv[0]);
        return 2;
    }
    f = fopen(argv[1], "r");
    if (NULL == f) {
        perror(argv[1]);
        return 1;
    }
    /* the one line that is not a comment or blank */
    while (NULL != fgets(line, sizeof(line), f)) {
        if ('#' != line[0] && strspn(line, " \t\r\n") < strlen(line)) {
            snprintf(desc, sizeof(desc), "%s", line);
        }
    }
    fclose(f);
    desc[strcspn(desc, "\r\n")] = '\0';
    if (0 != hwloc_topology_init(&t) || 0 != hwloc_topology_set_synthetic(t, desc)
        || 0 != hwloc_topology_load(t)) {
        fprintf(stderr, "%s: hwloc does not take \"%s\"\n", argv[1], desc);
        return 1;
    }
    if (0 != hwloc_topology_export_xml(t, argv[2], 0)) {
        perror(argv[2]);
        hwloc_topology_destroy(t);
        return 1;
    }
    hwloc_topology_destroy(t);
    return 0;
}
