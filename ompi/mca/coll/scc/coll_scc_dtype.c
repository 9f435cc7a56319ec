/* coll_scc_dtype.c: byte views of user buffers -- the buffer itself where its layout is
 * contiguous, else a packed copy made through Open MPI's convertor. */
#include "coll_scc.h"
#include "coll_scc_exec.h"

#include "ompi/datatype/ompi_datatype.h"
#include "opal/datatype/opal_convertor.h"

bool scc_dtype_contig(struct ompi_datatype_t *dt, size_t count, ptrdiff_t *lb)
{
    ptrdiff_t true_lb, true_extent;
    /* Open MPI's test takes an int count but answers the same for every count past 1 (the
       type has no gaps): a larger one -- a gather's whole buffer, count times the ranks --
       is asked as 2, not copied through a scratch buffer as big as itself */
    if (!ompi_datatype_is_contiguous_memory_layout(dt, (int32_t) (count > 2 ? 2 : count))) {
        return false;
    }
    ompi_datatype_get_true_extent(dt, &true_lb, &true_extent);
    *lb = true_lb;
    return true;
}

int scc_dtype_pack(const void *buf, size_t count, struct ompi_datatype_t *dt, void *out,
                   size_t bytes)
{
    opal_convertor_t conv;
    struct iovec iov = { out, bytes };
    uint32_t niov = 1;
    size_t max = bytes;
    int rc;

    OBJ_CONSTRUCT(&conv, opal_convertor_t);
    rc = opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dt->super, count,
                                                  buf, 0, &conv);
    if (OPAL_SUCCESS == rc) {
        rc = opal_convertor_pack(&conv, &iov, &niov, &max) < 0 || max != bytes ? OMPI_ERROR
                                                                              : OMPI_SUCCESS;
    }
    OBJ_DESTRUCT(&conv);
    return rc;
}

int scc_dtype_unpack(void *buf, size_t count, struct ompi_datatype_t *dt, const void *in,
                     size_t bytes)
{
    opal_convertor_t conv;
    struct iovec iov = { (void *) in, bytes };
    uint32_t niov = 1;
    size_t max = bytes;
    int rc;

    OBJ_CONSTRUCT(&conv, opal_convertor_t);
    rc = opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor, &dt->super, count,
                                                  buf, 0, &conv);
    if (OPAL_SUCCESS == rc) {
        rc = opal_convertor_unpack(&conv, &iov, &niov, &max) < 0 || max != bytes ? OMPI_ERROR
                                                                                : OMPI_SUCCESS;
    }
    OBJ_DESTRUCT(&conv);
    return rc;
}

const char *scc_view_in(mca_coll_scc_module_t *m, const void *buf, size_t count,
                        struct ompi_datatype_t *dt, size_t bytes)
{
    scc_view_t v;
    char *p = scc_view_begin(m, &v, true, buf, count, dt, bytes);

    scc_view_to(&v, bytes);
    return OMPI_SUCCESS == scc_view_end(&v, bytes) ? p : NULL;
}

int scc_dtype_copy(const void *sbuf, int scount, struct ompi_datatype_t *sdt, void *rbuf,
                   int rcount, struct ompi_datatype_t *rdt, size_t bytes)
{
    size_t ssize, rsize;

    ompi_datatype_type_size(sdt, &ssize);
    ompi_datatype_type_size(rdt, &rsize);
    if (ssize * (size_t) scount != bytes || rsize * (size_t) rcount != bytes) {
        return MPI_ERR_TRUNCATE;
    }
    return ompi_datatype_sndrcv(sbuf, scount, sdt, rbuf, rcount, rdt);
}

char *scc_view_out(mca_coll_scc_module_t *m, void *buf, size_t count, struct ompi_datatype_t *dt,
                   size_t bytes, bool *packed)
{
    ptrdiff_t lb;
    if (scc_dtype_contig(dt, count, &lb)) {
        *packed = false;
        return (char *) buf + lb;
    }
    *packed = true;
    return mca_coll_scc_scratch(m, SCC_SCRATCH_OUT, bytes + 1);
}

int scc_view_out_done(void *buf, size_t count, struct ompi_datatype_t *dt, const char *view,
                      size_t bytes, bool packed)
{
    return packed ? scc_dtype_unpack(buf, count, dt, view, bytes) : OMPI_SUCCESS;
}

char *scc_view_begin(mca_coll_scc_module_t *m, scc_view_t *v, bool in, const void *buf,
                     size_t count, struct ompi_datatype_t *dt, size_t bytes)
{
    ptrdiff_t lb;
    int rc;

    v->len = bytes;
    v->in = in;
    v->lazy = false;
    v->seq = true;
    v->rc = OMPI_SUCCESS;
    if (scc_dtype_contig(dt, count, &lb)) {
        v->done = bytes;
        return v->bytes = (char *) buf + lb;
    }
    if (OPAL_UNLIKELY(m->trying)) {
        /* a tried call (coll_scc_xport_try.h) abandoned where it stops could not destruct
           the convertor this view holds until its end: the call is a task from the start */
        scc_try_abort(m->xp);
    }
    v->done = 0;
    v->bytes = mca_coll_scc_scratch(m, in ? SCC_SCRATCH_IN : SCC_SCRATCH_OUT, bytes + 1);
    if (NULL == v->bytes) {
        return NULL;
    }
    OBJ_CONSTRUCT(&v->conv, opal_convertor_t);
    rc = in ? opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dt->super,
                                                       count, buf, 0, &v->conv)
            : opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor, &dt->super,
                                                       count, buf, 0, &v->conv);
    if (OPAL_SUCCESS != rc) {
        OBJ_DESTRUCT(&v->conv);
        return v->bytes = NULL;
    }
    v->lazy = true;
    return v->bytes;
}

/* The convertor packs whole predefined elements only: asked for a range that ends inside
 * one, it stops before it.  Asking for this much more reaches the end of the range. */
#define SCC_VIEW_SLACK 64

void scc_view_step(scc_view_t *v, size_t upto)
{
    upto = upto < v->len ? upto : v->len;
    while (v->done < upto && OMPI_SUCCESS == v->rc) {
        size_t want = upto - v->done, max;
        struct iovec iov;
        uint32_t niov = 1;
        int32_t r;

        if (v->in && want + SCC_VIEW_SLACK < v->len - v->done) {
            want += SCC_VIEW_SLACK;
        } else if (v->in) {
            want = v->len - v->done;
        }
        iov.iov_base = v->bytes + v->done;
        iov.iov_len = max = want;
        r = v->in ? opal_convertor_pack(&v->conv, &iov, &niov, &max)
                  : opal_convertor_unpack(&v->conv, &iov, &niov, &max);
        if (r < 0 || max > want) {
            v->rc = OMPI_ERROR;
            return;
        }
        v->done += max;
        if (0 == max) {
            /* an unpack that waits for the rest of an element: an error only where
               nothing more will come (a pack always gets on, asked for more) */
            if (v->in || upto == v->len) {
                v->rc = OMPI_ERROR;
            }
            return;
        }
    }
}

void scc_view_range(scc_view_t *v, size_t from, size_t to)
{
    if (v->seq && from <= v->done) {
        scc_view_step(v, to);   /* (in order from the start: [0, done) is there) */
        return;
    }
    if (from != v->done && OMPI_SUCCESS == v->rc) {
        /* (the convertor restarts at the start of the predefined element that holds from:
           the bytes before from are packed again, the same) */
        size_t pos = from;
        if (OPAL_SUCCESS != opal_convertor_set_position(&v->conv, &pos) || pos > from) {
            v->rc = OMPI_ERROR;
            return;
        }
        v->done = pos;
        v->seq = false;
    }
    scc_view_step(v, to);
}

void scc_view_skip(scc_view_t *v, size_t upto)
{
    size_t pos;

    if (NULL == v || !v->lazy || upto <= v->done) {
        return;
    }
    upto = upto < v->len ? upto : v->len;
    pos = upto;
    if (OPAL_SUCCESS != opal_convertor_set_position(&v->conv, &pos) || pos != upto) {
        v->rc = OMPI_ERROR;
    }
    v->done = upto;
}

int scc_view_end(scc_view_t *v, size_t upto)
{
    if (!v->lazy) {
        return OMPI_SUCCESS;
    }
    if (!v->in) {
        scc_view_step(v, upto);
    }
    OBJ_DESTRUCT(&v->conv);
    v->lazy = false;
    return v->rc;
}
