/* scc_colls_layouts.h (included by scc_colls.c): a broadcast, a gather and a scatter whose
 * ranks lay the same data out in different non-contiguous types -- struct { char[3]; int }
 * packed 7 bytes in an extent of 8 on even ranks, of 12 on odd ones -- in messages of many
 * slot pieces, whose boundaries fall inside elements: the packing and unpacking that follow
 * the pieces must reassemble every element. */

enum { L_COUNT = 40000 };

static MPI_Datatype layout_type(int rank)
{
    /* (the same type signature on every rank: 3 chars, an int) */
    int bl[2] = { 3, 1 };
    MPI_Aint disp[2] = { 0, 0 == rank % 2 ? 4 : 8 };
    MPI_Datatype types[2] = { MPI_CHAR, MPI_INT }, s, t;
    MPI_Type_create_struct(2, bl, disp, types, &s);
    MPI_Type_create_resized(s, 0, 0 == rank % 2 ? 8 : 12, &t);
    MPI_Type_free(&s);
    MPI_Type_commit(&t);
    return t;
}

static char *layout_at(char *b, int rank, size_t k)
{
    return b + k * (0 == rank % 2 ? 8 : 12);
}

static void layout_fill(char *b, int rank, int owner, size_t n, int salt)
{
    for (size_t k = 0; k < n; ++k) {
        char *e = layout_at(b, rank, k);
        int v = (int) k * 7 + owner * 1000003 + salt;
        e[0] = (char) (k & 0x7f);
        e[1] = (char) ((k * 3 + (size_t) owner) & 0x7f);
        e[2] = (char) (salt & 0x7f);
        memcpy(e + (0 == rank % 2 ? 4 : 8), &v, sizeof(v));
    }
}

static void layout_check(char *b, int rank, int owner, size_t n, int salt, const char *what)
{
    tb_cases++;
    for (size_t k = 0; k < n; ++k) {
        char *e = layout_at(b, rank, k);
        int v, want = (int) k * 7 + owner * 1000003 + salt;
        memcpy(&v, e + (0 == rank % 2 ? 4 : 8), sizeof(v));
        if (e[0] != (char) (k & 0x7f) || e[1] != (char) ((k * 3 + (size_t) owner) & 0x7f)
            || e[2] != (char) (salt & 0x7f) || v != want) {
            tb_fail("%s: element %zu of rank %d's data wrong (int %d, expected %d)", what, k,
                    owner, v, want);
            return;
        }
    }
}

static void test_layouts(MPI_Comm comm, const char *name)
{
    int rank, n;
    char what[128];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    MPI_Datatype t = layout_type(rank);
    size_t ext = 0 == rank % 2 ? 8 : 12;
    char *one = tb_alloc(L_COUNT * ext), *all = tb_alloc((size_t) n * L_COUNT * ext);

    for (int root = 0; root < n; root += n > 1 ? n - 1 : 1) {
        int salt = 11 + root;
        /* Bcast */
        memset(one, 0, L_COUNT * ext);
        if (rank == root) {
            layout_fill(one, rank, root, L_COUNT, salt);
        }
        MPI_Bcast(one, L_COUNT, t, root, comm);
        snprintf(what, sizeof(what), "%s bcast of mixed layouts root %d", name, root);
        layout_check(one, rank, root, L_COUNT, salt, what);
        /* Gather, then in place at the root */
        for (int inplace = 0; inplace < 2; ++inplace) {
            memset(all, 0, (size_t) n * L_COUNT * ext);
            layout_fill(one, rank, rank, L_COUNT, salt + inplace);
            if (rank == root && inplace) {
                layout_fill(all + (size_t) root * L_COUNT * ext, rank, root, L_COUNT,
                            salt + inplace);
                MPI_Gather(MPI_IN_PLACE, L_COUNT, t, all, L_COUNT, t, root, comm);
            } else {
                MPI_Gather(one, L_COUNT, t, all, L_COUNT, t, root, comm);
            }
            for (int r = 0; rank == root && r < n; ++r) {
                snprintf(what, sizeof(what), "%s gather%s of mixed layouts root %d", name,
                         inplace ? " in place" : "", root);
                layout_check(all + (size_t) r * L_COUNT * ext, rank, r, L_COUNT, salt + inplace,
                             what);
            }
        }
        /* Scatter, then in place at the root */
        for (int inplace = 0; inplace < 2; ++inplace) {
            memset(one, 0, L_COUNT * ext);
            for (int r = 0; rank == root && r < n; ++r) {
                layout_fill(all + (size_t) r * L_COUNT * ext, rank, r, L_COUNT, salt + 2);
            }
            if (rank == root && inplace) {
                MPI_Scatter(all, L_COUNT, t, MPI_IN_PLACE, L_COUNT, t, root, comm);
                memcpy(one, all + (size_t) root * L_COUNT * ext, L_COUNT * ext);
            } else {
                MPI_Scatter(all, L_COUNT, t, one, L_COUNT, t, root, comm);
            }
            snprintf(what, sizeof(what), "%s scatter%s of mixed layouts root %d", name,
                     inplace ? " in place" : "", root);
            layout_check(one, rank, rank, L_COUNT, salt + 2, what);
        }
    }
    tb_free(one);
    tb_free(all);
    MPI_Type_free(&t);
}
