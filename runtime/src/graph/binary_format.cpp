// PLACEHOLDER: replaced by the real implementation.
#include <stdexcept>
#include "formats.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
namespace irgl {
void write_irgl_binary(const std::string&, const CsrGraph&) { throw std::logic_error("not implemented"); }
CsrGraph read_irgl_binary(const std::string&) { throw std::logic_error("not implemented"); }
}
