// PLACEHOLDER: replaced by the real implementation.
#include <stdexcept>
#include "formats.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
namespace irgl {
TextInput read_text_input(const std::string&, bool) { throw std::logic_error("not implemented"); }
std::string peek_decompressed(const std::string&, size_t) { throw std::logic_error("not implemented"); }
}
