# lit configuration for irglc's tool tests.
#
# Substitutions:  %inputs   tests/inputs (shared test inputs, bad-input corpus)
#                 %data     tests/data (small real graphs)
#                 %datasets the real datasets (../shared/datasets)
#                 %examples lang-examples/
#                 %cpu-cxx SRC -o OUT %cpu-libs    build a generated CPU program
#                 %cuda-cxx SRC -o OUT %cuda-libs  build a generated CUDA program
#                 %python   the Python that runs lit
#                 %irgl-launch  tools/irgl-launch (multi-GPU programs)
# Features:       datasets  the datasets directory exists
#                 gpu       a CUDA GPU is usable (nvidia-smi lists one)
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "irglc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test", ".irgl"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.irgl_obj_root, "tests", "lit")

path = [config.irgl_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
config.environment["PATH"] = os.pathsep.join(path + [os.environ.get("PATH", "")])
config.environment["IRGL_NO_PROGRESS"] = "1"
for var in ["HOME", "TMPDIR", "CUDA_VISIBLE_DEVICES"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

source = config.irgl_source_root
# Longer names first: lit substitutes in order, and %data is a prefix of %datasets.
config.substitutions.append(("%datasets", config.datasets_dir))
config.substitutions.append(("%inputs", os.path.join(source, "tests", "inputs")))
config.substitutions.append(("%data", os.path.join(source, "tests", "data")))
config.substitutions.append(("%examples", os.path.join(source, "lang-examples")))
config.substitutions.append(("%irgl-launch", os.path.join(source, "tools", "irgl-launch")))
config.substitutions.append(("%cpu-cxx", config.cxx + " -O1 -std=c++17 -static-libstdc++ -static-libgcc " + config.irgl_includes))
config.substitutions.append(("%cpu-libs", config.irgl_host_libs))
config.substitutions.append(("%cuda-cxx", config.nvcc + " -O2 -std=c++17 --expt-relaxed-constexpr -arch=sm_" + config.cuda_arch + " -Xcompiler=-static-libstdc++,-static-libgcc " + config.irgl_includes))
config.substitutions.append(("%cuda-libs", config.irgl_gpu_libs))
config.substitutions.append(("%nvcc", config.nvcc))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cuda_arch", config.cuda_arch))

if os.path.isdir(config.datasets_dir):
    config.available_features.add("datasets")


def gpu_usable():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if gpu_usable():
    config.available_features.add("gpu")
