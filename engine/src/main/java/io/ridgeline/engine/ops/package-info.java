/** One operator on one chip: the hierarchical roofline of DeepFlow/Optimus (Kundu et al. 2024) with GEMM tiling, wave quantization and split-K, and memory-bound kernels; calibrated on microbenchmarks only. */
package io.ridgeline.engine.ops;
