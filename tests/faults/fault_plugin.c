/*
 * A small, correct spmma plugin in plain C (f16 x f16, f32 accumulation, f16 out, 2:4, on the
 * CPU) that misbehaves in one way chosen at build time, for the fault-injection tests:
 *   FAULT_SEGV_RUN, FAULT_SEGV_PROBE, FAULT_ABORT_CREATE, FAULT_EXIT0_RUN, FAULT_HANG_RUN, FAULT_WRONG_D,
 *   FAULT_NAN_D, FAULT_NULL_TABLE; PLUGIN_NAME sets its name (a duplicate of "cpu" is a fault too).
 * FAULT_DEVICES=N gives it N devices (default 1; more than one: each the host CPU under a name
 * and UUID of its own), for the --devices tests; FAULT_SEGV_RUN_DEVICE1 (two devices) crashes in run on device 1
 * only and is correct on device 0: a fault on one GPU of a host.
 * Faults only the conformance suite (spmma check-plugin) sees:
 *   FAULT_LEAK_DESTROY (destroy frees nothing), FAULT_SHARED_ERROR (one last_error for all threads),
 *   FAULT_STRUCT_SIZE (writes whole out-structs whatever the host's struct_size),
 *   FAULT_NULL_OPERANDS (upload reads operand pointers without checking them),
 *   FAULT_ZERO_TIMES (run reports 0 ms), FAULT_NAN_TIMES (run reports NaN and infinity, alternately).
 * Not faults but slow: FAULT_SLOW_EXIT (the library's destructor sleeps 1.5 s when the process
 * ends) and FAULT_SLOW_PROBE (probe takes 1.5 s, as a GPU driver's start can), for the tests that
 * a run's workers end, and start, side by side.
 * Written from plugin.h alone, as a vendor would.
 */
#include <spmma/plugin.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PLUGIN_NAME
#define PLUGIN_NAME "fault"
#endif

#if defined(FAULT_SEGV_RUN_DEVICE1) && !defined(FAULT_DEVICES)
#define FAULT_DEVICES 2
#endif
#ifndef FAULT_DEVICES
#define FAULT_DEVICES 1
#endif

#ifdef FAULT_SLOW_EXIT
__attribute__((destructor)) static void slow_exit(void) { usleep(1500000); }
#endif

#ifdef FAULT_SHARED_ERROR
static char g_error[256];
#else
static _Thread_local char g_error[256];
#endif

static spmma_status fail(spmma_status s, const char* msg) {
    snprintf(g_error, sizeof g_error, "%s", msg);
    return s;
}

static size_t f_last_error(char* b, size_t n) {
    if (b && n) snprintf(b, n, "%s", g_error);
    return strlen(g_error);
}

static void copy_out(void* dst, const void* src, size_t size) {
    uint32_t host;
    memcpy(&host, dst, sizeof host);
#ifdef FAULT_STRUCT_SIZE
    host = (uint32_t)size;
#endif
    memcpy(dst, src, host < size ? host : size);
    memcpy(dst, &host, sizeof host);
}

static float half_to_float(uint16_t h) {
    const int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), e - 25);
    return s ? -v : v;
}

static uint16_t float_to_half(float f) {
    const uint16_t sign = signbit(f) ? 0x8000 : 0;
    float a = fabsf(f);
    if (isnan(a)) return 0x7e00;
    if (a >= 65520.0f) return sign | 0x7c00;
    if (a < ldexpf(1.0f, -14)) return sign | (uint16_t)nearbyintf(a * ldexpf(1.0f, 24));
    int e;
    frexpf(a, &e);
    uint32_t units = (uint32_t)nearbyintf(ldexpf(a, 11 - e));
    if (units == 2048) { units = 1024; ++e; }
    if (e + 14 >= 31) return sign | 0x7c00;
    return sign | (uint16_t)((e + 14) << 10) | (uint16_t)(units & 0x3ff);
}

static const spmma_kernel_info k_kernel = {sizeof(spmma_kernel_info), 0, PLUGIN_NAME "_f16", "f16 on the CPU"};

struct spmma_handle {
    spmma_problem p;
    int32_t device;
    float *a, *b, *d;
};

static spmma_status f_get_info(spmma_plugin_info* out) {
    const spmma_plugin_info info = {sizeof info, 0, PLUGIN_NAME, "spmma fault tests", "1.0", "cpu", "a plugin that misbehaves on purpose"};
    if (!out) return fail(SPMMA_INVALID_ARGUMENT, "null info");
    copy_out(out, &info, sizeof info);
    return SPMMA_OK;
}

static int32_t f_device_count(void) { return FAULT_DEVICES; }

static spmma_status f_probe(int32_t device, spmma_device_info* out) {
#ifdef FAULT_SLOW_PROBE
    usleep(1500000);
#endif
#ifdef FAULT_SEGV_PROBE
    fprintf(stderr, "fault plugin: writing through a null pointer in probe\n");
    fflush(stderr);
    *(volatile int*)0 = 1;
#endif
    spmma_device_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.runnable = device >= 0 && device < FAULT_DEVICES;
    snprintf(info.arch, sizeof info.arch, "cpu");
    if (FAULT_DEVICES == 1) {
        snprintf(info.name, sizeof info.name, "host CPU");
    } else {
        snprintf(info.name, sizeof info.name, "host CPU as fault device %d", (int)device);
        snprintf(info.uuid, sizeof info.uuid, "fault-%d", (int)device);
    }
    if (!info.runnable) snprintf(info.reason, sizeof info.reason, "devices 0 to %d only", FAULT_DEVICES - 1);
    if (!out) return fail(SPMMA_INVALID_ARGUMENT, "null device info");
    copy_out(out, &info, sizeof info);
    return SPMMA_OK;
}

static int32_t f_kernel_count(void) { return 1; }

static spmma_status f_get_kernel(int32_t i, spmma_kernel_info* out) {
    if (i != 0 || !out) return fail(SPMMA_INVALID_ARGUMENT, "no such kernel");
    copy_out(out, &k_kernel, sizeof k_kernel);
    return SPMMA_OK;
}

static spmma_status check(int32_t device, const spmma_problem* in, const char* kernel, spmma_problem* p) {
    if (!in) return fail(SPMMA_INVALID_ARGUMENT, "null problem");
    memset(p, 0, sizeof *p);
    memcpy(p, in, in->struct_size < sizeof *p ? in->struct_size : sizeof *p);
    if (device < 0 || device >= FAULT_DEVICES) return fail(SPMMA_UNSUPPORTED, "no such device");
    if (p->a_type != SPMMA_F16 || p->b_type != SPMMA_F16 || p->acc_type != SPMMA_F32 || p->d_type != SPMMA_F16 ||
        p->pattern != SPMMA_PATTERN_2_4 || p->k % 4 || p->beta != 0.0 || p->scale_type != SPMMA_DTYPE_NONE ||
        spmma_problem_has_epilogue(p))
        return fail(SPMMA_UNSUPPORTED, "f16 x f16 -> f16 (f32 accumulation), 2:4, beta 0 only, no epilogue");
    if (kernel && strcmp(kernel, k_kernel.name) != 0) return fail(SPMMA_UNSUPPORTED, "unknown kernel");
    return SPMMA_OK;
}

static spmma_status f_supports(int32_t device, const spmma_problem* in, const char* kernel, char* reason, size_t size) {
    spmma_problem p;
    const spmma_status s = check(device, in, kernel, &p);
    if (reason && size) snprintf(reason, size, "%s", s == SPMMA_OK ? "" : g_error);
    return s;
}

static spmma_status f_create(int32_t device, const spmma_problem* in, const char* kernel, spmma_handle** out) {
#ifdef FAULT_ABORT_CREATE
    fprintf(stderr, "fault plugin: aborting in create\n");
    abort();
#endif
    spmma_problem p;
    const spmma_status s = check(device, in, kernel, &p);
    if (s != SPMMA_OK) return s;
    if (!out) return fail(SPMMA_INVALID_ARGUMENT, "null handle pointer");
    spmma_handle* h = calloc(1, sizeof *h);
    if (!h) return fail(SPMMA_OUT_OF_MEMORY, "out of memory");
    h->p = p;
    h->device = device;
    *out = h;
    return SPMMA_OK;
}

static spmma_status f_handle_kernel(const spmma_handle* h, char* name, size_t size) {
    if (!h) return fail(SPMMA_INVALID_ARGUMENT, "null handle");
    if (name && size) snprintf(name, size, "%s", k_kernel.name);
    return SPMMA_OK;
}

static void release(spmma_handle* h) {
    free(h->a);
    free(h->b);
    free(h->d);
    h->a = h->b = h->d = NULL;
}

static spmma_status f_upload(spmma_handle* h, const spmma_operands* in) {
    if (!h || !in) return fail(SPMMA_INVALID_ARGUMENT, "null handle or operands");
    spmma_operands o;
    memset(&o, 0, sizeof o);
    memcpy(&o, in, in->struct_size < sizeof o ? in->struct_size : sizeof o);
    const int64_t m = h->p.m, n = h->p.n, k = h->p.k;
    if (o.a_values_bytes != (size_t)(m * k) || o.a_indices_bytes != (size_t)(m * k / 4) || o.b_bytes != (size_t)(k * n * 2))
        return fail(SPMMA_INVALID_ARGUMENT, "operand sizes do not match the problem");
#ifndef FAULT_NULL_OPERANDS
    if (!o.a_values || !o.a_indices || !o.b) return fail(SPMMA_INVALID_ARGUMENT, "A or B is missing");
#endif
    release(h);
    h->a = calloc((size_t)(m * k), sizeof(float));
    h->b = malloc((size_t)(k * n) * sizeof(float));
    h->d = malloc((size_t)(m * n) * sizeof(float));
    if (!h->a || !h->b || !h->d) return fail(SPMMA_OUT_OF_MEMORY, "out of memory");
    const uint16_t* av = (const uint16_t*)o.a_values;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < k / 4; ++g) {
            const uint8_t idx = o.a_indices[i * (k / 4) + g];
            h->a[i * k + 4 * g + (idx & 3)] = half_to_float(av[i * (k / 2) + 2 * g]);
            h->a[i * k + 4 * g + ((idx >> 2) & 3)] = half_to_float(av[i * (k / 2) + 2 * g + 1]);
        }
    const uint16_t* bv = (const uint16_t*)o.b;
    for (int64_t e = 0; e < k * n; ++e) h->b[e] = half_to_float(bv[e]);
    return SPMMA_OK;
}

static void compute(spmma_handle* h) {
    const spmma_problem* p = &h->p;
    for (int64_t i = 0; i < p->m; ++i)
        for (int64_t j = 0; j < p->n; ++j) {
            double acc = 0;
            for (int64_t kk = 0; kk < p->k; ++kk) acc += (double)h->a[i * p->k + kk] * h->b[j * p->k + kk];
            h->d[i * p->n + j] = (float)(p->alpha * acc);
        }
}

static spmma_status f_run(spmma_handle* h, const spmma_run_config* in) {
    if (!h || !in) return fail(SPMMA_INVALID_ARGUMENT, "null handle or config");
#ifdef FAULT_SEGV_RUN
    fprintf(stderr, "fault plugin: writing through a null pointer in run\n");
    fflush(stderr);
    *(volatile int*)0 = 1;
#endif
#ifdef FAULT_SEGV_RUN_DEVICE1
    if (h->device == 1) {
        fprintf(stderr, "fault plugin: writing through a null pointer in run on device 1\n");
        fflush(stderr);
        *(volatile int*)0 = 1;
    }
#endif
#ifdef FAULT_EXIT0_RUN
    exit(0);
#endif
#ifdef FAULT_HANG_RUN
    for (;;) pause();
#endif
    spmma_run_config c;
    memset(&c, 0, sizeof c);
    memcpy(&c, in, in->struct_size < sizeof c ? in->struct_size : sizeof c);
    if (!h->a) return fail(SPMMA_INVALID_ARGUMENT, "run before upload");
    if (c.iterations > 0 && !c.times_ms) return fail(SPMMA_INVALID_ARGUMENT, "null times");
    for (int i = 0; i < c.warmup; ++i) compute(h);
    for (int i = 0; i < c.iterations; ++i) {
        compute(h);
#if defined(FAULT_ZERO_TIMES)
        c.times_ms[i] = 0.0f;
#elif defined(FAULT_NAN_TIMES)
        c.times_ms[i] = i % 2 ? INFINITY : NAN;
#else
        c.times_ms[i] = 0.01f;
#endif
    }
    return SPMMA_OK;
}

static spmma_status f_download(spmma_handle* h, void* d, size_t bytes) {
    if (!h || !d || !h->d) return fail(SPMMA_INVALID_ARGUMENT, "nothing to download");
    const int64_t count = h->p.m * h->p.n;
    if (bytes != (size_t)count * 2) return fail(SPMMA_INVALID_ARGUMENT, "wrong D size");
    uint16_t* out = (uint16_t*)d;
    for (int64_t e = 0; e < count; ++e) out[e] = float_to_half(h->d[e]);
#ifdef FAULT_WRONG_D
    out[count / 2] = float_to_half(h->d[count / 2] + 1.0f);
#endif
#ifdef FAULT_NAN_D
    out[count - 1] = 0x7e00;
#endif
    return SPMMA_OK;
}

static void f_destroy(spmma_handle* h) {
    if (!h) return;
#ifndef FAULT_LEAK_DESTROY
    release(h);
    free(h);
#endif
}

__attribute__((unused)) static const spmma_plugin_api k_api = {
    sizeof(spmma_plugin_api), SPMMA_ABI_MAJOR, SPMMA_ABI_MINOR, 0,
    f_get_info, f_device_count, f_probe, f_kernel_count, f_get_kernel, f_supports,
    f_create, f_handle_kernel, f_upload, f_run, f_download, f_destroy, f_last_error,
    NULL, NULL,
};

SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void) {
#ifdef FAULT_NULL_TABLE
    return NULL;
#else
    return &k_api;
#endif
}
