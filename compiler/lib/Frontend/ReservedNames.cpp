//===- ReservedNames.cpp - Names the generated code keeps for itself ------===//

#include "ReservedNames.h"

#include <map>

#include "DslModel.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace irglc {

using namespace clang;

namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// Names the generated code uses unqualified in the program's namespace,
// other than what it defines per kernel: the runtime's (runtime/include/
// irgl/lang), the alias of the schedules' namespace, and the namespaces it
// reaches through.
const std::map<std::string, std::string>& namespace_names() {
  static const std::map<std::string, std::string> names = [] {
    std::map<std::string, std::string> result;
    for (const char* name :
         {"Graph", "Worklist", "StagedWorklist", "UncoalescedWorklist", "NodeData", "NodeArray",
          "Sum", "Min", "Max", "SumOp", "MinOp", "MaxOp", "ReductionSlot", "Node", "Edge",
          "atomic_add", "atomic_min", "atomic_max", "atomic_or", "atomic_and", "output",
          "view_of", "Array", "TaskPool", "TaskPush", "TaskSpawner", "TaskLauncher"})
      result[name] = std::string("the generated code uses the runtime's '") + name +
                     "' (irgl::lang) by this name";
    result["schedule"] = "the generated code names the namespace irgl::gpu::schedule 'schedule'";
    for (const char* name : {"std", "irgl"})
      result[name] = std::string("the generated code puts the file's declarations in a "
                                 "namespace, where this name would hide ::") + name;
    return result;
  }();
  return names;
}

}  // namespace

bool is_body_member_name(const std::string& name) {
  static const std::set<std::string> members = {
      "pre",          "edge",      "post",      "edges_begin",      "edges_end",
      "max_degree",   "edge_count", "edge_layout", "identity",       "combine",
      "atomic_combine", "begin",   "flush",     "Closure",          "Accum",
      "kHasEdges",    "kHasAccum", "kHasPost",  "kContiguousEdges"};
  return members.count(name) > 0;
}

ReservedNames::ReservedNames(std::vector<std::string> kernels, std::string program,
                             std::set<std::string> data)
    : kernels_(std::move(kernels)), program_(std::move(program)), data_(std::move(data)) {}

// What the generated code defines in the program's namespace, or uses
// there, under this name.
std::string ReservedNames::generated_problem(const std::string& name) const {
  if (auto it = namespace_names().find(name); it != namespace_names().end()) return it->second;
  for (const std::string& kernel : kernels_)
    if (name == kernel + "_body" || name == "make_" + kernel || name == kernel + "_options")
      return "the generated code defines '" + name + "' for kernel '" + kernel + "'";
  if (starts_with(name, "for_all_nodes_line"))
    return "the generated code names for_all_nodes bodies 'for_all_nodes_line<N>'";
  if (starts_with(name, "pipe_loop_line"))
    return "the generated code names outlined pipe loops 'pipe_loop_line<N>'";
  return "";
}

std::string ReservedNames::problem(const std::string& name, NameScope scope, bool function) const {
  if (starts_with(name, "irgl_")) return "names starting with 'irgl_' are kept for the generated code";
  if (scope == NameScope::kernel_local) return "";
  if ((scope == NameScope::body_member || scope == NameScope::file_data) && is_body_member_name(name))
    return "every kernel's generated Body struct has a member of this name";
  if (std::string problem = generated_problem(name); !problem.empty()) return problem;
  if ((scope == NameScope::file || scope == NameScope::file_data ||
       scope == NameScope::program_param) && (name == "Result" || name == "DeviceResult"))
    return "library mode (--emit=library) defines the struct '" + name + "' of the program's outputs";
  if ((scope == NameScope::file || scope == NameScope::file_data) &&
      (name == "run" || name == "run_on_device" || name == "check_graph") && !function)
    return "library mode (--emit=library) defines the function '" + name +
           "', which only other functions may overload";
  if (scope == NameScope::program_param && data_.count(name))
    return "the generated driver sizes the vertex data and resets the reductions first, which "
           "a parameter of this name would hide";
  if (scope == NameScope::program_param && name == program_)
    return "the library's run() calls the program by its name";
  return "";
}

void ReservedNames::check(FrontendContext& context, SourceLocation where, const std::string& name,
                          NameScope scope, bool function) const {
  const std::string why = problem(name, scope, function);
  if (!why.empty())
    context.error(where, "'" + name + "' is reserved: " + why + "; choose another name");
}

namespace {

// The local variables of a kernel or of the driver; the driver's lambdas
// (for_all_nodes bodies) are kernel code.
class LocalNames : public RecursiveASTVisitor<LocalNames> {
 public:
  LocalNames(FrontendContext& context, const ReservedNames& reserved, NameScope scope)
      : context_(context), reserved_(reserved), scope_(scope) {}

  bool shouldVisitLambdaBody() const { return true; }
  bool TraverseLambdaExpr(LambdaExpr* lambda) {
    const NameScope outer = scope_;
    scope_ = NameScope::kernel_local;
    const bool result = RecursiveASTVisitor::TraverseLambdaExpr(lambda);
    scope_ = outer;
    return result;
  }
  bool VisitVarDecl(VarDecl* var) {
    if (!isa<ParmVarDecl>(var) && var->getIdentifier())
      reserved_.check(context_, var->getLocation(), var->getName().str(), scope_);
    return true;
  }

 private:
  FrontendContext& context_;
  const ReservedNames& reserved_;
  NameScope scope_;
};

}  // namespace

namespace {

// The names a file-scope declaration introduces there: its own, an unscoped
// enum's enumerators, those of an extern "C" block's declarations.
void file_scope_names(const Decl* decl, std::vector<const NamedDecl*>& names) {
  if (const auto* block = dyn_cast<LinkageSpecDecl>(decl)) {
    for (const Decl* inner : block->decls()) file_scope_names(inner, names);
    return;
  }
  const auto* named = dyn_cast<NamedDecl>(decl);
  if (!named || !named->getIdentifier()) return;
  names.push_back(named);
  if (const auto* enumeration = dyn_cast<EnumDecl>(decl); enumeration && !enumeration->isScoped())
    for (const EnumConstantDecl* enumerator : enumeration->enumerators())
      names.push_back(enumerator);
}

}  // namespace

void ReservedNames::check_file_scope(FrontendContext& context,
                                     const TranslationUnitDecl* unit) const {
  std::vector<const NamedDecl*> names;
  for (const Decl* decl : unit->decls())
    if (context.in_main_file(decl->getLocation()) && !decl->isImplicit())
      file_scope_names(decl, names);
  std::set<std::string> reported;  // a function declared, then defined: once
  for (const NamedDecl* named : names) {
    const std::string name = named->getName().str();
    const auto* var = dyn_cast<VarDecl>(named);
    const bool data =
        var && (dsl::is_node_data(var->getType()) || dsl::is_array(var->getType()) ||
                dsl::reduction_op(var->getType()));
    const bool function = isa<FunctionDecl>(named) || isa<FunctionTemplateDecl>(named);
    const NameScope scope = data ? NameScope::file_data : NameScope::file;
    if (!problem(name, scope, function).empty() && reported.insert(name).second)
      check(context, named->getLocation(), name, scope, function);
  }
}

void ReservedNames::check_program(FrontendContext& context,
                                  const std::vector<const FunctionDecl*>& kernels,
                                  const FunctionDecl* program) const {
  for (const FunctionDecl* kernel : kernels) {
    for (const ParmVarDecl* param : kernel->parameters())
      if (param->getIdentifier())
        check(context, param->getLocation(), param->getName().str(), NameScope::body_member);
    LocalNames(context, *this, NameScope::kernel_local).TraverseStmt(kernel->getBody());
  }
  if (!program) return;
  for (const ParmVarDecl* param : program->parameters())
    if (param->getIdentifier())
      check(context, param->getLocation(), param->getName().str(), NameScope::program_param);
  LocalNames(context, *this, NameScope::driver_local).TraverseStmt(program->getBody());
}

}  // namespace irglc
