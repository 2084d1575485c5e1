//===- Signature.cpp - a program's library entry point as JSON ------------===//
//
// --emit=signature: what a binding needs to call a program's library entry
// point (--emit=library) without parsing its header: the namespace, each
// parameter's type, parse kind and default, each output's element type and
// whether it holds a value per vertex, and what the graph must hold. The
// Python package (python/src/irgl/compile.py) generates its C shim from it.
//
//===----------------------------------------------------------------------===//

#include <nlohmann/json.hpp>

#include "CodeWriter.h"
#include "LibraryMode.h"
#include "irglc/Backend/Backend.h"

namespace irglc {

namespace {

const char* weights_name(GraphNeeds::Weights weights) {
  switch (weights) {
    case GraphNeeds::Weights::int32: return "int32";
    case GraphNeeds::Weights::float32: return "float32";
    case GraphNeeds::Weights::none: break;
  }
  return nullptr;
}

}  // namespace

std::string signature_json(const Module& module) {
  nlohmann::ordered_json json;
  json["program"] = module.program_name;
  json["namespace"] = program_namespace(module);
  json["source"] = display_file_name(module.source_file);
  json["takes_graph"] = !module.driver.graph_param.empty();
  nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
  for (const ProgramParam& param : module.driver.params) {
    nlohmann::ordered_json entry;
    entry["name"] = param.var.name;
    entry["type"] = param.var.type;
    entry["kind"] = param.value_kind;
    entry["vertex"] = param.is_node;
    entry["default"] = param.default_value ? nlohmann::ordered_json(*param.default_value) : nullptr;
    parameters.push_back(entry);
  }
  json["parameters"] = parameters;
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  for (const std::string& name : collect_outputs(module)) {
    nlohmann::ordered_json entry;
    entry["name"] = name;
    if (const Field* field = module.find_field(name)) {
      entry["type"] = field->element_type;
      entry["per_vertex"] = true;
    } else if (const Reduction* reduction = module.find_reduction(name)) {
      entry["type"] = reduction->value_type;
      entry["per_vertex"] = false;
    }
    outputs.push_back(entry);
  }
  json["outputs"] = outputs;
  const char* weights = weights_name(module.graph_needs.weights);
  json["needs"] = {{"in_edges", module.graph_needs.in_edges},
                   {"weights", weights ? nlohmann::ordered_json(weights) : nullptr}};
  json["requires"] = requirement_names(module);
  return json.dump(2) + "\n";
}

}  // namespace irglc
