// PLACEHOLDER: replaced by the real implementation.
#include <stdexcept>
#include "formats.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
namespace irgl {
EdgeList generate_rmat(const RmatParams&, bool) { throw std::logic_error("not implemented"); }
EdgeList generate_grid(const GridParams&) { throw std::logic_error("not implemented"); }
EdgeList generate_uniform(const UniformParams&) { throw std::logic_error("not implemented"); }
EdgeList generate_from_spec(const std::string&, bool) { throw std::logic_error("not implemented"); }
}
