// PLACEHOLDER: replaced by the real implementation.
#include <stdexcept>
#include "formats.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
namespace irgl {
std::string cache_path_for(const std::string&, const BuildOptions&, const std::string&) { throw std::logic_error("not implemented"); }
std::optional<CsrGraph> read_cached_graph(const std::string&) { throw std::logic_error("not implemented"); }
void write_cached_graph(const std::string&, const CsrGraph&) { throw std::logic_error("not implemented"); }
}
