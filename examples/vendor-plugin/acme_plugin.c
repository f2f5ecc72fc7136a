/*
 * acme: an spmma plugin in plain C, built out of tree against the installed package.
 * It runs on the CPU: f16 x f16 (f32 accumulation, f16 out) and s8/u8 x s8/u8 (s32), 2:4 A.
 */
#include <spmma/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- errors: one message per thread ---------------------------------------------------- */
static _Thread_local char g_error[512];

static spmma_status fail(spmma_status s, const char* msg) {
    snprintf(g_error, sizeof g_error, "%s", msg);
    return s;
}

static size_t acme_last_error(char* buffer, size_t size) {
    if (buffer && size) snprintf(buffer, size, "%s", g_error);
    return strlen(g_error);
}

/* Reads a host struct of `host_size` bytes into a zeroed local one. */
static void copy_in(void* dst, size_t dst_size, const void* src, uint32_t host_size) {
    memset(dst, 0, dst_size);
    memcpy(dst, src, host_size < dst_size ? host_size : dst_size);
}

/* Writes a description struct: only what fits in the host's struct_size. */
static void copy_out(void* dst, const void* src, size_t src_size) {
    uint32_t host_size;
    memcpy(&host_size, dst, sizeof host_size);
    memcpy(dst, src, host_size < src_size ? host_size : src_size);
    memcpy(dst, &host_size, sizeof host_size);
}

/* ---- f16 <-> f32 --------------------------------------------------------------------------- */
static float half_to_float(uint16_t h) {
    const int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;
    if (e == 0) v = ldexpf((float)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexpf((float)(m | 0x400), e - 25);
    return s ? -v : v;
}

static uint16_t float_to_half(float f) { /* round to nearest even */
    const uint16_t sign = signbit(f) ? 0x8000 : 0;
    float a = fabsf(f);
    if (isnan(a)) return 0x7e00;
    if (a >= 65520.0f) return sign | 0x7c00;
    if (a < ldexpf(1.0f, -14)) return sign | (uint16_t)nearbyintf(a * ldexpf(1.0f, 24));
    int e;
    frexpf(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    uint32_t units = (uint32_t)nearbyintf(ldexpf(a, 11 - e)); /* 1.m scaled to 11 bits */
    if (units == 2048) { units = 1024; ++e; }
    if (e + 14 >= 31) return sign | 0x7c00;
    return sign | (uint16_t)((e + 14) << 10) | (uint16_t)(units & 0x3ff);
}

/* ---- the plugin ----------------------------------------------------------------------------- */
static const spmma_kernel_info k_kernels[] = {
    {sizeof(spmma_kernel_info), 0, "acme_cpu_f16", "f16 x f16, f32 accumulation, f16 out, on the CPU"},
    {sizeof(spmma_kernel_info), 0, "acme_cpu_i8", "s8/u8 x s8/u8, s32, on the CPU"},
};

struct spmma_handle {
    spmma_problem p;
    float* a;     /* dense m x k */
    float* b;     /* k x n, column-major */
    double* c;    /* m x n or NULL */
    double* d;    /* m x n */
};

static spmma_status acme_get_info(spmma_plugin_info* out) {
    const spmma_plugin_info info = {sizeof info, 0, "acme", "ACME Sparse Corp.", "1.0", "cpu",
                                    "example vendor plugin in plain C (CPU)"};
    if (!out) return fail(SPMMA_INVALID_ARGUMENT, "null info");
    copy_out(out, &info, sizeof info);
    return SPMMA_OK;
}

static int32_t acme_device_count(void) { return 1; }

static spmma_status acme_probe(int32_t device, spmma_device_info* out) {
    spmma_device_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.runnable = device == 0;
    snprintf(info.name, sizeof info.name, "host CPU");
    snprintf(info.arch, sizeof info.arch, "cpu");
    if (device != 0) snprintf(info.reason, sizeof info.reason, "acme has one device, 0");
    if (!out) return fail(SPMMA_INVALID_ARGUMENT, "null device info");
    copy_out(out, &info, sizeof info);
    return SPMMA_OK;
}

static int32_t acme_kernel_count(void) { return 2; }

static spmma_status acme_get_kernel(int32_t index, spmma_kernel_info* out) {
    if (index < 0 || index > 1 || !out) return fail(SPMMA_INVALID_ARGUMENT, "no such kernel index");
    copy_out(out, &k_kernels[index], sizeof k_kernels[index]);
    return SPMMA_OK;
}

static int is_int8(spmma_dtype t) { return t == SPMMA_S8 || t == SPMMA_U8; }

static const char* kernel_for(const spmma_problem* p) {
    if (p->a_type == SPMMA_F16 && p->b_type == SPMMA_F16 && p->acc_type == SPMMA_F32 && p->d_type == SPMMA_F16)
        return k_kernels[0].name;
    if (is_int8(p->a_type) && is_int8(p->b_type) && p->d_type == SPMMA_S32 && !p->saturate) return k_kernels[1].name;
    return NULL;
}

static spmma_status check(int32_t device, const spmma_problem* in, const char* kernel, spmma_problem* p) {
    if (!in) return fail(SPMMA_INVALID_ARGUMENT, "null problem");
    copy_in(p, sizeof *p, in, in->struct_size);
    if (device != 0) return fail(SPMMA_UNSUPPORTED, "acme has one device, 0");
    if (p->pattern != SPMMA_PATTERN_2_4 || p->k % 4) return fail(SPMMA_UNSUPPORTED, "acme runs 2:4 A with k a multiple of 4");
    if (p->scale_type != SPMMA_DTYPE_NONE) return fail(SPMMA_UNSUPPORTED, "acme has no block scaling");
#if SPMMA_ABI_MINOR >= 2
    /* ABI 1.2's epilogue (scales, bias, activation): refused, so that only what acme computes runs. */
    if (spmma_problem_has_epilogue(p)) return fail(SPMMA_UNSUPPORTED, "acme has no epilogue beyond alpha and beta");
#endif
    const char* k = kernel_for(p);
    if (!k) return fail(SPMMA_UNSUPPORTED, "acme runs f16 (f32 acc, f16 out) and s8/u8 (s32, no satfinite) only");
    if (kernel && strcmp(kernel, k) != 0) return fail(SPMMA_UNSUPPORTED, "that kernel does not run this type");
    return SPMMA_OK;
}

static spmma_status acme_supports(int32_t device, const spmma_problem* in, const char* kernel, char* reason, size_t size) {
    spmma_problem p;
    const spmma_status s = check(device, in, kernel, &p);
    if (reason && size) snprintf(reason, size, "%s", s == SPMMA_OK ? "" : g_error);
    return s;
}

static spmma_status acme_create(int32_t device, const spmma_problem* in, const char* kernel, spmma_handle** out) {
    spmma_problem p;
    const spmma_status s = check(device, in, kernel, &p);
    if (s != SPMMA_OK) return s;
    if (!out) return fail(SPMMA_INVALID_ARGUMENT, "null handle pointer");
    spmma_handle* h = calloc(1, sizeof *h);
    if (!h) return fail(SPMMA_OUT_OF_MEMORY, "out of memory");
    h->p = p;
    *out = h;
    return SPMMA_OK;
}

static spmma_status acme_handle_kernel(const spmma_handle* h, char* name, size_t size) {
    if (!h) return fail(SPMMA_INVALID_ARGUMENT, "null handle");
    if (name && size) snprintf(name, size, "%s", kernel_for(&h->p));
    return SPMMA_OK;
}

static float element(spmma_dtype t, const void* buf, int64_t i) {
    switch (t) {
        case SPMMA_F16: { uint16_t h; memcpy(&h, (const uint8_t*)buf + 2 * i, 2); return half_to_float(h); }
        case SPMMA_S8: return (float)((const int8_t*)buf)[i];
        case SPMMA_U8: return (float)((const uint8_t*)buf)[i];
        case SPMMA_S32: { int32_t v; memcpy(&v, (const uint8_t*)buf + 4 * i, 4); return (float)v; }
        default: return NAN;
    }
}

static void release(spmma_handle* h) {
    free(h->a);
    free(h->b);
    free(h->c);
    free(h->d);
    h->a = h->b = NULL;
    h->c = h->d = NULL;
}

static spmma_status acme_upload(spmma_handle* h, const spmma_operands* in) {
    if (!h || !in) return fail(SPMMA_INVALID_ARGUMENT, "null handle or operands");
    spmma_operands o;
    copy_in(&o, sizeof o, in, in->struct_size);
    const spmma_problem* p = &h->p;
    const int64_t m = p->m, n = p->n, k = p->k;
    const size_t esize = p->a_type == SPMMA_F16 ? 2 : 1;
    if (o.a_values_bytes != (size_t)(m * k / 2) * esize || o.a_indices_bytes != (size_t)(m * k / 4) ||
        o.b_bytes != (size_t)(k * n) * esize)
        return fail(SPMMA_INVALID_ARGUMENT, "operand sizes do not match the problem");
    if (!o.a_values || !o.a_indices || !o.b) return fail(SPMMA_INVALID_ARGUMENT, "A or B is missing");
    if (p->beta != 0.0 && !o.c) return fail(SPMMA_INVALID_ARGUMENT, "beta is not 0 but C is missing");
    release(h);
    h->a = calloc((size_t)(m * k), sizeof(float));
    h->b = malloc((size_t)(k * n) * sizeof(float));
    h->d = malloc((size_t)(m * n) * sizeof(double));
    if (p->beta != 0.0) h->c = malloc((size_t)(m * n) * sizeof(double));
    if (!h->a || !h->b || !h->d || (p->beta != 0.0 && !h->c)) {
        release(h);
        return fail(SPMMA_OUT_OF_MEMORY, "out of memory");
    }
    /* Compressed A: each group of 4 keeps 2 values at the positions its index byte names. */
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < k / 4; ++g) {
            const uint8_t idx = o.a_indices[i * (k / 4) + g];
            const int p0 = idx & 3, p1 = (idx >> 2) & 3;
            if (p0 >= p1) return fail(SPMMA_INVALID_ARGUMENT, "invalid index byte in A");
            h->a[i * k + 4 * g + p0] = element(p->a_type, o.a_values, i * (k / 2) + 2 * g);
            h->a[i * k + 4 * g + p1] = element(p->a_type, o.a_values, i * (k / 2) + 2 * g + 1);
        }
    for (int64_t e = 0; e < k * n; ++e) h->b[e] = element(p->b_type, o.b, e);
    if (h->c)
        for (int64_t e = 0; e < m * n; ++e) h->c[e] = element(p->c_type, o.c, e);
    return SPMMA_OK;
}

static void compute(spmma_handle* h) {
    const spmma_problem* p = &h->p;
    for (int64_t i = 0; i < p->m; ++i)
        for (int64_t j = 0; j < p->n; ++j) {
            double acc = 0; /* exact for s8 sums; f16 products are exact in f32 and summed in f64 */
            for (int64_t kk = 0; kk < p->k; ++kk) acc += (double)h->a[i * p->k + kk] * h->b[j * p->k + kk];
            if (p->acc_type == SPMMA_F32) acc = (float)acc;
            h->d[i * p->n + j] = p->alpha * acc + (h->c ? p->beta * h->c[i * p->n + j] : 0.0);
        }
}

static spmma_status acme_run(spmma_handle* h, const spmma_run_config* in) {
    if (!h || !in) return fail(SPMMA_INVALID_ARGUMENT, "null handle or config");
    spmma_run_config c;
    copy_in(&c, sizeof c, in, in->struct_size);
    if (!h->a) return fail(SPMMA_INVALID_ARGUMENT, "run before upload");
    if (c.iterations > 0 && !c.times_ms) return fail(SPMMA_INVALID_ARGUMENT, "null times");
    for (int i = 0; i < c.warmup; ++i) compute(h);
    for (int i = 0; i < c.iterations; ++i) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        compute(h);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        c.times_ms[i] = (float)((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6);
    }
    return SPMMA_OK;
}

static spmma_status acme_download(spmma_handle* h, void* d, size_t bytes) {
    if (!h || !d || !h->d) return fail(SPMMA_INVALID_ARGUMENT, "nothing to download");
    const int64_t count = h->p.m * h->p.n;
    if (h->p.d_type == SPMMA_F16) {
        if (bytes != (size_t)count * 2) return fail(SPMMA_INVALID_ARGUMENT, "wrong D size");
        for (int64_t e = 0; e < count; ++e) {
            const uint16_t v = float_to_half((float)h->d[e]);
            memcpy((uint8_t*)d + 2 * e, &v, 2);
        }
    } else {
        if (bytes != (size_t)count * 4) return fail(SPMMA_INVALID_ARGUMENT, "wrong D size");
        for (int64_t e = 0; e < count; ++e) {
            const int32_t v = (int32_t)(uint32_t)(int64_t)h->d[e];
            memcpy((uint8_t*)d + 4 * e, &v, 4);
        }
    }
    return SPMMA_OK;
}

static void acme_destroy(spmma_handle* h) {
    if (!h) return;
    release(h);
    free(h);
}

static const spmma_plugin_api k_api = {
    sizeof(spmma_plugin_api), SPMMA_ABI_MAJOR, SPMMA_ABI_MINOR, 0,
    acme_get_info, acme_device_count, acme_probe, acme_kernel_count, acme_get_kernel, acme_supports,
    acme_create, acme_handle_kernel, acme_upload, acme_run, acme_download, acme_destroy, acme_last_error,
};

SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void) { return &k_api; }
