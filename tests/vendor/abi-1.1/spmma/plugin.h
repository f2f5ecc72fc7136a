/*
 * spmma plugin ABI: the one header a backend plugin is built against.
 *
 * Pure C, only <stdint.h> and <stddef.h>. The rules (versioning, ownership, errors) are in
 * ABI.md beside this file, with the change log. This header grows only by appending: new
 * constants get new values, new struct fields go at the end of their struct, new calls go at
 * the end of spmma_plugin_api.
 */
#ifndef SPMMA_PLUGIN_H
#define SPMMA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ------------------------------------------------------------------------------ */

#define SPMMA_ABI_MAJOR 1 /* a host refuses a plugin of another major */
#define SPMMA_ABI_MINOR 1 /* grows when fields or calls are appended */

#if defined(_WIN32)
#define SPMMA_EXPORT __declspec(dllexport)
#else
#define SPMMA_EXPORT __attribute__((visibility("default")))
#endif

/* The one symbol a plugin exports. */
#define SPMMA_ENTRY_SYMBOL "spmma_plugin_entry"

/* ---- status codes ------------------------------------------------------------------------- */

typedef int32_t spmma_status;
#define SPMMA_OK 0
#define SPMMA_UNSUPPORTED 1      /* problem, kernel or device this plugin cannot run */
#define SPMMA_INVALID_ARGUMENT 2 /* a null pointer, a wrong size, an unknown kernel name */
#define SPMMA_DEVICE_ERROR 3     /* a driver or device call failed (launch, sync, copy) */
#define SPMMA_OUT_OF_MEMORY 4    /* host or device allocation failed */
#define SPMMA_INTERNAL_ERROR 5   /* anything else, caught at the boundary */

/* ---- element types -------------------------------------------------------------------------
 * Storage in every buffer that crosses the ABI (little-endian):
 *   32-bit: F32, TF32 (f32 bits; the instruction drops the low 13 mantissa bits), S32
 *   16-bit: F16, BF16
 *    8-bit: E4M3, E5M2, UE8M0, UE4M3 (bit 7 zero), S8, U8
 *    6-bit: E3M2, E2M3, one per byte in bits 5..0, bits 7..6 zero
 *    4-bit: E2M1, S4, U4, two per byte, the element of lower index in bits 3..0
 */
typedef int32_t spmma_dtype;
#define SPMMA_DTYPE_NONE 0
#define SPMMA_F32 1
#define SPMMA_F16 2
#define SPMMA_BF16 3
#define SPMMA_TF32 4
#define SPMMA_E4M3 5
#define SPMMA_E5M2 6
#define SPMMA_E3M2 7
#define SPMMA_E2M3 8
#define SPMMA_E2M1 9
#define SPMMA_UE8M0 10
#define SPMMA_UE4M3 11
#define SPMMA_S8 12
#define SPMMA_U8 13
#define SPMMA_S4 14
#define SPMMA_U4 15
#define SPMMA_S32 16

/* ---- sparsity patterns of A (along k) --------------------------------------------------------
 * The canonical compressed form of A that crosses the ABI:
 *   values:  m rows x k/2 elements of a_type, row-major, rows packed back to back
 *   indices: m rows x k/G bytes, row-major, one byte per group of G elements of a row
 *     2:4          G=4  bits 1..0: position (0..3) of the first kept element, bits 3..2: of the
 *                       second; first < second
 *     1:2          G=2  bit 0: position (0..1) of the kept element
 *     4:8 pairwise G=8  bits 1..0: position (0..3) of the first kept pair, bits 3..2: of the
 *                       second; first < second
 *   Kept elements appear in values in increasing column order.
 */
typedef int32_t spmma_pattern;
#define SPMMA_PATTERN_NONE 0
#define SPMMA_PATTERN_2_4 1
#define SPMMA_PATTERN_1_2 2
#define SPMMA_PATTERN_4_8_PAIRWISE 3

/* ---- the problem -----------------------------------------------------------------------------
 * D = alpha * A * B + beta * C, A m x k (sparse), B k x n, C and D m x n.
 *   B: column-major (element (kk, j) at index j * k + kk)
 *   C, D: row-major (element (i, j) at index i * n + j)
 *   Block scales, when scale_type is not NONE: scale_A m x (k / scale_block) row-major,
 *   scale_B n x (k / scale_block) (column j's blocks contiguous), one byte each.
 * Integer problems (S32 accumulation): alpha and beta are integers; D = alpha*acc + beta*C
 * in 64-bit arithmetic, wrapped to 32 bits, or clamped when saturate is 1.
 */
typedef struct spmma_problem {
    uint32_t struct_size; /* sizeof(spmma_problem) of the side that filled it */
    uint32_t reserved0;
    int64_t m, n, k;
    spmma_dtype a_type;
    spmma_dtype b_type;
    spmma_dtype c_type;
    spmma_dtype d_type;
    spmma_dtype acc_type; /* F32, F16 or S32 */
    spmma_pattern pattern;
    int32_t saturate;       /* 1: .satfinite on s32 accumulation */
    spmma_dtype scale_type; /* NONE, UE8M0 or UE4M3 */
    int32_t scale_block;    /* k elements per scale factor: 16, 32 or 64 (0 when unscaled) */
    int32_t reserved1;
    double alpha;
    double beta;
} spmma_problem;

/* ---- descriptions ------------------------------------------------------------------------- */

#define SPMMA_PLUGIN_DENSE 0x1u      /* computes with A expanded to dense: a baseline */
#define SPMMA_PLUGIN_FLUSHES_L2 0x2u  /* 1.1: honours SPMMA_RUN_FLUSH_L2 in spmma_run_config.flags */

typedef struct spmma_plugin_info {
    uint32_t struct_size;
    uint32_t flags; /* SPMMA_PLUGIN_* */
    /* Strings owned by the plugin, valid while it is loaded. */
    const char* name;        /* short, unique: "sm90a", "cpu" */
    const char* vendor;
    const char* version;
    const char* target;      /* "sm_90a", "cpu" */
    const char* description; /* one line */
} spmma_plugin_info;

typedef struct spmma_device_info {
    uint32_t struct_size;
    int32_t runnable;  /* 1: this plugin can run on this device */
    char name[128];    /* "NVIDIA H200", "host CPU" */
    char arch[32];     /* "sm_90", "x86_64" */
    char driver[64];   /* driver version, or empty */
    char reason[512];  /* why not runnable; empty when runnable */
    /* 1.1 */
    char uuid[48];       /* the device's UUID as NVML prints it ("GPU-8c1f...-..."), or empty */
    char pci_bus_id[32]; /* "0000:18:00.0", or empty */
} spmma_device_info;

typedef struct spmma_kernel_info {
    uint32_t struct_size;
    uint32_t reserved;
    const char* name;        /* unique within the plugin; encodes arch, types, tile, cluster */
    const char* description; /* one line */
} spmma_kernel_info;

/* ---- operands and runs -------------------------------------------------------------------- */

typedef struct spmma_operands {
    uint32_t struct_size;
    uint32_t reserved;
    const void* a_values; size_t a_values_bytes;
    const uint8_t* a_indices; size_t a_indices_bytes;
    const void* b; size_t b_bytes;
    const void* c; size_t c_bytes;             /* NULL (0 bytes) when beta == 0 */
    const uint8_t* scale_a; size_t scale_a_bytes; /* NULL when unscaled */
    const uint8_t* scale_b; size_t scale_b_bytes;
} spmma_operands;

typedef struct spmma_run_config {
    uint32_t struct_size;
    int32_t warmup;     /* untimed launches first */
    int32_t iterations; /* timed launches, one time each */
    int32_t reserved;
    float* times_ms;    /* host array of `iterations` floats, filled by the plugin */
    /* 1.1 */
    uint32_t flags;     /* SPMMA_RUN_* */
    uint32_t reserved1;
} spmma_run_config;

/* spmma_run_config.flags (1.1) */
#define SPMMA_RUN_FLUSH_L2 0x1u /* evict the device's L2 cache before each timed launch, outside its timing */

typedef struct spmma_handle spmma_handle; /* opaque, owned by the plugin */

/* ---- small helpers every side may use (no state, no allocation) ------------------------- */

static inline const char* spmma_dtype_name(spmma_dtype t) {
    switch (t) {
        case SPMMA_F32: return "f32";
        case SPMMA_F16: return "f16";
        case SPMMA_BF16: return "bf16";
        case SPMMA_TF32: return "tf32";
        case SPMMA_E4M3: return "e4m3";
        case SPMMA_E5M2: return "e5m2";
        case SPMMA_E3M2: return "e3m2";
        case SPMMA_E2M3: return "e2m3";
        case SPMMA_E2M1: return "e2m1";
        case SPMMA_UE8M0: return "ue8m0";
        case SPMMA_UE4M3: return "ue4m3";
        case SPMMA_S8: return "s8";
        case SPMMA_U8: return "u8";
        case SPMMA_S4: return "s4";
        case SPMMA_U4: return "u4";
        case SPMMA_S32: return "s32";
        default: return "none";
    }
}

/* Bits one element occupies in a canonical buffer (4, 8, 16 or 32; 0 for NONE). */
static inline int spmma_dtype_storage_bits(spmma_dtype t) {
    switch (t) {
        case SPMMA_F32: case SPMMA_TF32: case SPMMA_S32: return 32;
        case SPMMA_F16: case SPMMA_BF16: return 16;
        case SPMMA_E2M1: case SPMMA_S4: case SPMMA_U4: return 4;
        case SPMMA_DTYPE_NONE: return 0;
        default: return 8;
    }
}

static inline const char* spmma_pattern_name(spmma_pattern p) {
    switch (p) {
        case SPMMA_PATTERN_2_4: return "2:4";
        case SPMMA_PATTERN_1_2: return "1:2";
        case SPMMA_PATTERN_4_8_PAIRWISE: return "4:8";
        default: return "none";
    }
}

/* Elements of a row that one index byte covers (4, 2 or 8; 0 for NONE). */
static inline int spmma_pattern_group(spmma_pattern p) {
    switch (p) {
        case SPMMA_PATTERN_2_4: return 4;
        case SPMMA_PATTERN_1_2: return 2;
        case SPMMA_PATTERN_4_8_PAIRWISE: return 8;
        default: return 0;
    }
}

/* ---- the function table ---------------------------------------------------------------------
 * Every call returns a status (but kernel_count, destroy, last_error); on failure the message
 * is fetched with last_error on the same thread. `device` is an ordinal as the plugin counts
 * devices. `kernel` NULL lets the plugin choose.
 */
typedef struct spmma_plugin_api {
    uint32_t struct_size;
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t reserved;

    spmma_status (*get_info)(spmma_plugin_info* info);
    int32_t (*device_count)(void);
    spmma_status (*probe)(int32_t device, spmma_device_info* info);
    int32_t (*kernel_count)(void);
    spmma_status (*get_kernel)(int32_t index, spmma_kernel_info* info);
    /* SPMMA_OK, or SPMMA_UNSUPPORTED with the reason written into `reason`. */
    spmma_status (*supports)(int32_t device, const spmma_problem* problem, const char* kernel,
                             char* reason, size_t reason_size);
    spmma_status (*create)(int32_t device, const spmma_problem* problem, const char* kernel,
                           spmma_handle** handle);
    /* The kernel the handle runs (the plugin's choice when created with NULL). */
    spmma_status (*handle_kernel)(const spmma_handle* handle, char* name, size_t size);
    spmma_status (*upload)(spmma_handle* handle, const spmma_operands* operands);
    spmma_status (*run)(spmma_handle* handle, const spmma_run_config* config);
    spmma_status (*download)(spmma_handle* handle, void* d, size_t d_bytes);
    void (*destroy)(spmma_handle* handle);
    /* Copies the calling thread's last error message (NUL-terminated, truncated to size);
     * returns its full length. */
    size_t (*last_error)(char* buffer, size_t size);

    /* ---- 1.1: optional; a NULL entry, or one past the table's struct_size, is absent ---- */
    /* Copies the elements of D at the given row-major indices (i * n + j, each < m * n) into
     * `values`, packed in D's type in the order given (count * its bytes = values_bytes).
     * The host uses it for sampled verification instead of downloading all of D. */
    spmma_status (*download_elements)(spmma_handle* handle, const int64_t* indices, size_t count, void* values,
                                      size_t values_bytes);
    /* Writes one JSON object (UTF-8, NUL-terminated, truncated to size) with what a record
     * should carry about this handle: how its plan or algorithm was chosen, a cache's use,
     * sub-phases. Called after upload or run. Keys: ABI.md. */
    spmma_status (*describe_handle)(const spmma_handle* handle, char* json, size_t size);
} spmma_plugin_api;

typedef const spmma_plugin_api* (*spmma_plugin_entry_fn)(void);

/* Defined by each plugin; returns a table that lives as long as the plugin is loaded. */
SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPMMA_PLUGIN_H */
