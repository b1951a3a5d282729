// add_sum.mlir - an MLIR GPU kernel for `tkview capture --mlir`.
//
// out[i] = x[i] + y[i] for every i (a grid-stride loop), and the sum of all
// out[i] added into sum[0] with one atomic add per thread.  The addition is a
// helper function that the pipeline inlines, as Triton inlines a
// @triton.jit helper: its IR keeps the call site in its location
// (callsite(helper at caller)), which tkview shows as an inline stack.
// The locations are this file's own lines: MLIR gives every op a
// loc("add_sum.mlir":line:col) when it reads the file.
module attributes {gpu.container_module} {
  gpu.module @add_sum {
    func.func private @add(%a: f32, %b: f32) -> f32
        attributes {llvm.linkage = #llvm.linkage<internal>} {
      %s = arith.addf %a, %b : f32
      return %s : f32
    }

    gpu.func @add_sum(%x: memref<98432xf32>, %y: memref<98432xf32>,
                      %out: memref<98432xf32>, %sum: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %n = arith.constant 98432 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %ntid = gpu.block_dim x
      %nblocks = gpu.grid_dim x
      %base = arith.muli %bid, %ntid : index
      %start = arith.addi %base, %tid : index
      %stride = arith.muli %ntid, %nblocks : index
      %acc = scf.for %i = %start to %n step %stride
          iter_args(%partial = %zero) -> (f32) {
        %xv = memref.load %x[%i] : memref<98432xf32>
        %yv = memref.load %y[%i] : memref<98432xf32>
        %v = func.call @add(%xv, %yv) : (f32, f32) -> f32
        memref.store %v, %out[%i] : memref<98432xf32>
        %next = arith.addf %partial, %v : f32
        scf.yield %next : f32
      }
      %old = memref.atomic_rmw addf %acc, %sum[%c0]
          : (f32, memref<1xf32>) -> f32
      gpu.return
    }
  }
}
