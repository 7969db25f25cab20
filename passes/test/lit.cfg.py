# lit configuration for the PASTA pass tests (IR in, FileCheck out).
import os
import lit.formats

config.name = "pasta-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cu", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pasta_binary_dir, "passes", "test")
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]

# Options must come from the RUN lines, never from the caller's shell: no
# PASTA_* variable reaches a test. The pass reads PASTA_LINES, PASTA_KERNELS,
# PASTA_HOST, PASTA_VARIANTS, PASTA_INTERCEPT and PASTA_TRACE
# (passes/Options.cpp); the runtime reads more.
for var in [v for v in config.environment if v.startswith("PASTA_")]:
    del config.environment[var]

tools = config.llvm_tools_dir
config.substitutions.append(("%plugin", config.pasta_plugin))
config.substitutions.append(
    ("%opt", f"{tools}/opt -load-pass-plugin {config.pasta_plugin}"))
config.substitutions.append(
    ("%cuda_device",
     f"{tools}/clang++ -x cuda --cuda-path={config.cuda_path} "
     "--offload-arch=sm_90 -Wno-unknown-cuda-version --cuda-device-only "
     f"-fpass-plugin={config.pasta_plugin}"))
config.substitutions.append(("%clang", f"{tools}/clang"))
config.substitutions.append(("%ptxas", f"{config.cuda_path}/bin/ptxas"))
config.environment["PATH"] = os.pathsep.join(
    [tools, config.environment.get("PATH", "")])
if os.path.exists(os.path.join(config.cuda_path, "include", "cuda_runtime.h")):
    config.available_features.add("cuda")
