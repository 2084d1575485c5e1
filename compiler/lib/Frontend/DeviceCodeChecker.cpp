//===- DeviceCodeChecker.cpp - What GPU code may contain -------------------===//

#include "DeviceCodeChecker.h"

#include "DslModel.h"
#include "ReservedNames.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"

namespace irglc {

using namespace clang;

namespace {

// Library functions CUDA provides in device code (math, and constexpr
// algorithms that --expt-relaxed-constexpr makes available).
bool device_library_function(const FunctionDecl* function) {
  static const std::set<std::string> allowed = {
      "min", "max", "abs", "fabs", "fabsf", "sqrt", "sqrtf", "exp", "expf", "log", "logf",
      "log2", "log2f", "pow", "powf", "floor", "floorf", "ceil", "ceilf", "fmin", "fminf",
      "fmax", "fmaxf", "round", "roundf", "isnan", "isinf", "llabs", "labs", "swap",
      "numeric_limits", "lowest", "infinity", "epsilon", "signbit", "fma", "fmaf",
      "trunc", "truncf", "exp2", "exp2f", "sin", "cos", "sinf", "cosf", "tanh", "tanhf"};
  if (function->isConstexpr()) return true;
  const std::string name = function->getNameAsString();
  if (!allowed.count(name)) return false;
  // Only the global and std:: versions.
  const DeclContext* context = function->getDeclContext()->getRedeclContext();
  while (context && context->isInlineNamespace()) context = context->getParent();
  if (context->isTranslationUnit()) return true;
  if (const auto* ns = dyn_cast<NamespaceDecl>(context))
    return ns->getName() == "std" || ns->getName() == "__gnu_cxx";
  if (const auto* record = dyn_cast<CXXRecordDecl>(context))  // numeric_limits<T>::max()
    return record->getName() == "numeric_limits";
  return false;
}

// Prelude operations that make sense only in the driver.
bool driver_only_prelude(const std::string& class_name, const std::string& name) {
  if (class_name.empty())
    return name == "for_all_nodes" || name == "output" || name == "output_sink";
  if (class_name == "Pipe") return true;
  if (class_name == "Sum" || class_name == "Min" || class_name == "Max" ||
      class_name == "Reduction")
    return name == "operator=" || name == "value" || name.rfind("operator ", 0) == 0;
  if (class_name == "NodeData") return name == "reset" || name == "values" || name == "name";
  return false;
}

}  // namespace

class DeviceCodeVisitor : public RecursiveASTVisitor<DeviceCodeVisitor> {
 public:
  DeviceCodeVisitor(DeviceCodeChecker& checker, const FunctionDecl* function, bool is_helper)
      : checker_(checker), context_(checker.context_), function_(function), is_helper_(is_helper) {}

  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCXXThrowExpr(CXXThrowExpr* expr) {
    context_.error(expr->getBeginLoc(), "exceptions are not supported in GPU code");
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt* stmt) {
    context_.error(stmt->getBeginLoc(), "exceptions are not supported in GPU code");
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr* expr) {
    context_.error(expr->getBeginLoc(),
                   "dynamic allocation ('new') is not supported in GPU code");
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr* expr) {
    context_.error(expr->getBeginLoc(),
                   "dynamic allocation ('delete') is not supported in GPU code");
    return true;
  }
  bool VisitAsmStmt(AsmStmt* stmt) {
    // AsmStmt::getBeginLoc() is not virtual and returns an invalid location;
    // the `asm` keyword's location is what the subclasses report.
    context_.error(stmt->getAsmLoc(), "inline assembly is not supported in GPU code");
    return true;
  }
  bool VisitVarDecl(VarDecl* var) {
    if (var->isStaticLocal())
      context_.error(var->getLocation(), "static local variables are not supported in GPU code");
    return true;
  }
  // Labels as values (a GNU extension) do not exist in device code.
  bool VisitAddrLabelExpr(AddrLabelExpr* expr) {
    context_.error(expr->getBeginLoc(), "the address of a label ('&&" +
                                            expr->getLabel()->getNameAsString() +
                                            "') is not supported in GPU code");
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt* stmt) {
    context_.error(stmt->getBeginLoc(), "computed 'goto' is not supported in GPU code");
    return true;
  }
  // The member functions of a class declared in a function would be
  // host-only for nvcc, and in a kernel the generated Body struct around
  // them hides the kernel's variables from them.
  bool VisitCXXMethodDecl(CXXMethodDecl* method) {
    const CXXRecordDecl* record = method->getParent();
    if (method->isImplicit() || record->isLambda() || !record->isLocalClass()) return true;
    context_.error(method->getLocation(), "member functions of a class declared inside GPU code "
                                          "are not supported; declare '" +
                                              record->getNameAsString() + "' at file scope");
    return true;
  }

  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) {
      const CXXMethodDecl* method = member->getMethodDecl();
      if (method && method->isVirtual() && !method->hasAttr<FinalAttr>() &&
          !method->getParent()->hasAttr<FinalAttr>()) {
        context_.error(call->getExprLoc(), "virtual call to '" + method->getNameAsString() +
                                               "' is not supported in GPU code");
        return true;
      }
    }
    if (!callee) {
      // Calls through a lambda or function object variable are checked where
      // the callable is defined; function pointers are not supported.
      const Expr* target = call->getCallee()->IgnoreParenImpCasts();
      if (target->getType()->isFunctionPointerType() || target->getType()->isFunctionType())
        context_.error(call->getBeginLoc(), "calls through function pointers are not supported in GPU code");
      return true;
    }
    if (is_helper_ && dsl::prelude_function(call) == "parallel")
      context_.error(call->getBeginLoc(), dsl::kParallelPlacement);
    check_callee(call, callee);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr* construct) {
    const CXXConstructorDecl* constructor = construct->getConstructor();
    if (!constructor || constructor->isTrivial() || constructor->isConstexpr()) return true;
    const CXXRecordDecl* record = constructor->getParent();
    if (record->isLambda() || context_.in_main_file(record->getLocation()) ||
        dsl::in_prelude(record))
      return true;
    context_.error(construct->getBeginLoc(),
                   "GPU code cannot construct '" + record->getQualifiedNameAsString() +
                       "' (a host library type)");
    return true;
  }

  // Types named in kernel code (unqualified: a qualified name is looked up
  // in its scope, not in the Body struct's).
  bool TraverseElaboratedTypeLoc(ElaboratedTypeLoc loc) {
    if (loc.getQualifierLoc()) return true;
    return RecursiveASTVisitor::TraverseElaboratedTypeLoc(loc);
  }
  bool VisitTagTypeLoc(TagTypeLoc loc) {
    check_not_hidden(loc.getDecl(), loc.getNameLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc loc) {
    check_not_hidden(loc.getTypedefNameDecl(), loc.getNameLoc());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc loc) {
    check_not_hidden(loc.getTypePtr()->getTemplateName().getAsTemplateDecl(),
                     loc.getTemplateNameLoc());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (!ref->hasQualifier()) check_not_hidden(ref->getDecl(), ref->getLocation());
    const auto* var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var || !var->hasGlobalStorage() || var->isStaticLocal()) return true;
    const bool is_field = context_.fields.count(var) > 0;
    const bool is_reduction = context_.reductions.count(var) > 0;
    if (is_field || is_reduction) {
      if (is_helper_)
        context_.error(ref->getLocation(),
                       std::string("helper function '") + function_->getNameAsString() +
                           "' uses " + (is_field ? "NodeData" : "reduction") + " '" +
                           var->getNameAsString() +
                           "'; only kernels may: pass the values the helper needs as arguments");
      return true;
    }
    const QualType type = var->getType();
    if ((var->isConstexpr() || type.isConstQualified()) && var->hasInit() &&
        (type->isScalarType() || var->isConstexpr()))
      return true;
    context_.error(ref->getLocation(),
                   "GPU code uses the host variable '" + var->getNameAsString() +
                       "': pass its value as a kernel parameter or make it constexpr");
    return true;
  }

 private:
  void check_callee(CallExpr* call, const FunctionDecl* callee) {
    const auto* method = dyn_cast<CXXMethodDecl>(callee);
    if (method && method->getParent()->isLambda()) return;  // body visited in place
    if (dsl::is_kernel(callee) || dsl::is_program(callee)) {
      context_.error(call->getBeginLoc(), std::string("GPU code cannot call the ") +
                                              (dsl::is_kernel(callee) ? "kernel" : "program") +
                                              " '" + callee->getNameAsString() +
                                              "'; kernels are launched from the driver");
      return;
    }
    if (dsl::in_prelude(callee) || (method && dsl::in_prelude(method->getParent()))) {
      const std::string class_name =
          method ? dsl::prelude_class(context_.ast().getRecordType(method->getParent())) : "";
      const std::string name = callee->getNameAsString();
      if (driver_only_prelude(class_name, name))
        context_.error(call->getBeginLoc(), "'" + (class_name.empty() ? "" : class_name + "::") +
                                                name + "' is for the driver, not for GPU code");
      note_graph_use(class_name, name, call);
      if (class_name.empty() && name.rfind("atomic_", 0) == 0) check_atomic_type(call, name);
      return;
    }
    if (context_.in_main_file(callee->getLocation())) {
      const FunctionDecl* definition = callee->getDefinition();
      if (!definition) {
        context_.error(call->getBeginLoc(), "GPU code calls '" + callee->getNameAsString() +
                                                "', which this file declares but does not define");
        return;
      }
      checker_.record_call(function_, definition, call);
      checker_.check_helper(definition);
      return;
    }
    if (device_library_function(callee)) return;
    context_.error(call->getBeginLoc(),
                   "call to host function '" + callee->getQualifiedNameAsString() +
                       "' in GPU code: kernels and their helpers may call only functions "
                       "defined in this file, the irgl operations and math functions");
  }

  // The GPU's atomics (and the runtime's loops of compare-and-swap) work on
  // 32- and 64-bit words.
  void check_atomic_type(CallExpr* call, const std::string& name) {
    if (call->getNumArgs() == 0) return;
    const QualType type = call->getArg(0)->getType().getCanonicalType().getUnqualifiedType();
    const bool floating = type->isSpecificBuiltinType(BuiltinType::Float) ||
                          type->isSpecificBuiltinType(BuiltinType::Double);
    const bool number = (type->isIntegerType() && !type->isBooleanType() &&
                         !type->isEnumeralType()) || floating;
    const uint64_t bits = number ? context_.ast().getTypeSize(type) : 0;
    if (bits == 32 || bits == 64) return;
    // Vertex data's type as its declaration spells it (uint8_t, not unsigned char).
    const auto field = dsl::field_access(call->getArg(0));
    const QualType spelled = field ? dsl::template_argument(field->field->getType())
                                   : call->getArg(0)->getType();
    context_.error(call->getBeginLoc(), "'" + name + "' on '" + context_.type_name(spelled) +
                                            "' is not supported: GPU atomics update 32- or "
                                            "64-bit integers, float or double");
  }

  // Kernel code runs inside a generated Body struct, whose own members
  // (schedule/body.h) would hide a file-scope entity of the same name.
  void check_not_hidden(const NamedDecl* decl, SourceLocation where) {
    if (is_helper_ || !decl || !decl->getIdentifier()) return;
    if (!is_body_member_name(decl->getName().str())) return;
    if (!decl->getDeclContext()->getRedeclContext()->isFileContext()) return;  // a local
    const std::string name = decl->getName().str();
    context_.error(where, "kernel code uses '" + name + "', declared outside the kernel, but "
                          "the kernel's generated Body struct has a member of this name that "
                          "hides it; rename '" + name + "'");
  }

  void note_graph_use(const std::string& class_name, const std::string& name, CallExpr* call) {
    if (class_name != "Graph") return;
    if (name == "in_edges" || name == "in_degree" || name == "src" || name == "in_begin" ||
        name == "in_end" || name == "in_weight")
      checker_.needs.in_edges = true;
    if (name == "weight" || name == "out_weight" || name == "in_weight") {
      const auto* method = cast<CXXMemberCallExpr>(call)->getMethodDecl();
      const auto* args = method->getTemplateSpecializationArgs();
      const bool is_float = args && args->size() == 1 &&
                            args->get(0).getAsType()->isRealFloatingType();
      const auto wanted = is_float ? GraphNeeds::Weights::float32 : GraphNeeds::Weights::int32;
      if (checker_.needs.weights != GraphNeeds::Weights::none && checker_.needs.weights != wanted)
        context_.error(call->getBeginLoc(),
                       "the program reads edge weights both as integers and as floats");
      checker_.needs.weights = wanted;
    }
  }

  DeviceCodeChecker& checker_;
  FrontendContext& context_;
  const FunctionDecl* function_;
  bool is_helper_;
};

void DeviceCodeChecker::check_kernel_code(const Stmt* body) {
  DeviceCodeVisitor visitor(*this, nullptr, false);
  visitor.TraverseStmt(const_cast<Stmt*>(body));
}

void DeviceCodeChecker::check_helper(const FunctionDecl* helper) {
  if (!helpers_.insert(helper).second) return;
  helpers_in_call_order_.push_back(helper);
  DeviceCodeVisitor visitor(*this, helper, true);
  visitor.TraverseStmt(helper->getBody());
}

void DeviceCodeChecker::record_call(const FunctionDecl* caller, const FunctionDecl* callee,
                                    const CallExpr* call) {
  if (caller) calls_[caller].push_back({callee, call});
}

void DeviceCodeChecker::check_recursion() {
  // Depth-first search; a call to a function on the current path closes a
  // cycle.
  enum class State { unvisited, on_path, done };
  std::map<const FunctionDecl*, State> state;
  std::function<void(const FunctionDecl*)> visit = [&](const FunctionDecl* function) {
    state[function] = State::on_path;
    for (const CallSite& site : calls_[function]) {
      const State callee_state = state[site.callee];
      if (callee_state == State::on_path) {
        context_.error(site.call->getBeginLoc(),
                       "recursive call to '" + site.callee->getNameAsString() +
                           "': recursion is not supported in GPU code");
      } else if (callee_state == State::unvisited) {
        visit(site.callee);
      }
    }
    state[function] = State::done;
  };
  for (const FunctionDecl* helper : helpers_in_call_order_)
    if (state[helper] == State::unvisited) visit(helper);
}

}  // namespace irglc
