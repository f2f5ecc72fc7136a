# CUDA device code for the GPU plugins: nvcc compiles each kernel file into a fatbin, which is
# embedded into the plugin (section .nv_fatbin, so cuobjdump finds it) and loaded with the
# driver API. No CUDA runtime, no CMake CUDA language: nvcc is only a device compiler here.
set(SPMMA_CUDA_MIN_VERSION 12.8)
option(SPMMA_WITH_CUDA "Build the GPU plugins when nvcc is found" ON)
set(SPMMA_HAVE_CUDA OFF)
set(SPMMA_NO_CUDA_REASON "no CUDA toolkit found (nvcc 12.8 or newer)")
if(SPMMA_WITH_CUDA)
  find_program(SPMMA_NVCC nvcc HINTS ENV CUDA_PATH ENV CUDA_HOME /usr/local/cuda PATH_SUFFIXES bin)
endif()
if(NOT SPMMA_WITH_CUDA)
  set(SPMMA_NO_CUDA_REASON "configured with SPMMA_WITH_CUDA=OFF")
  message(STATUS "spmma: SPMMA_WITH_CUDA=OFF: GPU plugins skipped")
elseif(SPMMA_NVCC)
  execute_process(COMMAND ${SPMMA_NVCC} --version OUTPUT_VARIABLE _nvcc_out ERROR_QUIET)
  string(REGEX MATCH "release ([0-9]+\\.[0-9]+)" _ "${_nvcc_out}")
  set(SPMMA_NVCC_VERSION ${CMAKE_MATCH_1})
  get_filename_component(_cuda_bin ${SPMMA_NVCC} DIRECTORY)
  get_filename_component(SPMMA_CUDA_ROOT ${_cuda_bin} DIRECTORY)
  find_path(SPMMA_CUDA_INCLUDE_DIR cuda.h HINTS ${SPMMA_CUDA_ROOT}/include ${SPMMA_CUDA_ROOT}/targets/x86_64-linux/include)
  if(SPMMA_NVCC_VERSION VERSION_LESS SPMMA_CUDA_MIN_VERSION)
    message(STATUS "spmma: nvcc ${SPMMA_NVCC_VERSION} is older than ${SPMMA_CUDA_MIN_VERSION}: GPU plugins skipped")
  elseif(NOT SPMMA_CUDA_INCLUDE_DIR)
    message(STATUS "spmma: nvcc found but no cuda.h: GPU plugins skipped")
  else()
    set(SPMMA_HAVE_CUDA ON)
    message(STATUS "spmma: nvcc ${SPMMA_NVCC_VERSION} at ${SPMMA_NVCC}: GPU plugins built")
  endif()
else()
  message(STATUS "spmma: nvcc not found: GPU plugins skipped (set CUDA_PATH to build them)")
endif()
set(SPMMA_NVCC_FLAGS -O3 -std=c++17 -lineinfo --expt-relaxed-constexpr CACHE STRING "nvcc flags for device code")

# spmma_embed_fatbins(TARGET target SOURCES k1.cu ... GENCODES -gencode=... [INCLUDES dir...] [OPTIONS ...])
# For each kernel file k.cu: a fatbin, and the symbols spmma_fatbin_<k> / spmma_fatbin_<k>_end
# (extern "C" const unsigned char[]) in `target`.
function(spmma_embed_fatbins)
  cmake_parse_arguments(ARG "" "TARGET" "SOURCES;GENCODES;INCLUDES;OPTIONS" ${ARGN})
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/fatbin)
  file(MAKE_DIRECTORY ${outdir})
  set(incflags "")
  foreach(dir ${ARG_INCLUDES})
    list(APPEND incflags -I${dir})
  endforeach()
  foreach(src ${ARG_SOURCES})
    get_filename_component(stem ${src} NAME_WE)
    get_filename_component(abs ${src} ABSOLUTE)
    set(fatbin ${outdir}/${stem}.fatbin)
    add_custom_command(
      OUTPUT ${fatbin}
      COMMAND ${SPMMA_NVCC} -fatbin ${SPMMA_NVCC_FLAGS} ${ARG_OPTIONS} ${ARG_GENCODES} ${incflags}
              -MD -MF ${fatbin}.d -o ${fatbin} ${abs}
      DEPENDS ${abs}
      DEPFILE ${fatbin}.d
      COMMENT "nvcc ${stem}.cu -> fatbin"
      VERBATIM)
    set(asm ${outdir}/${stem}_embed.S)
    file(WRITE ${asm}.in
"    .section .nv_fatbin, \"a\"\n    .balign 16\n    .global spmma_fatbin_${stem}\n    .hidden spmma_fatbin_${stem}\nspmma_fatbin_${stem}:\n    .incbin \"${fatbin}\"\n    .global spmma_fatbin_${stem}_end\n    .hidden spmma_fatbin_${stem}_end\nspmma_fatbin_${stem}_end:\n    .section .note.GNU-stack,\"\",@progbits\n")
    configure_file(${asm}.in ${asm} COPYONLY)
    set_source_files_properties(${asm} PROPERTIES OBJECT_DEPENDS ${fatbin})
    target_sources(${ARG_TARGET} PRIVATE ${asm})
  endforeach()
endfunction()
