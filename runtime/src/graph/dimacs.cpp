// PLACEHOLDER: replaced by the real implementation.
#include <stdexcept>
#include "formats.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
namespace irgl {
EdgeList parse_dimacs(const TextInput&) { throw std::logic_error("not implemented"); }
}
