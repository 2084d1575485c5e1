//===- DslModel.cpp - What the irgl prelude's declarations mean -----------===//

#include "DslModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace irglc::dsl {

using namespace clang;

bool in_prelude(const Decl* decl) {
  if (!decl) return false;
  const DeclContext* context = decl->getDeclContext();
  while (context && !context->isNamespace()) context = context->getParent();
  const auto* lang = dyn_cast_or_null<NamespaceDecl>(context);
  if (!lang || lang->getName() != "lang") return false;
  const auto* irgl = dyn_cast_or_null<NamespaceDecl>(lang->getDeclContext());
  return irgl && irgl->getName() == "irgl" && irgl->getDeclContext()->isTranslationUnit();
}

std::string prelude_class(QualType type) {
  if (type.isNull()) return "";
  type = type.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const auto* record = type->getAsCXXRecordDecl();
  if (!record || !in_prelude(record)) return "";
  return record->getName().str();
}

bool is_graph(QualType type) { return prelude_class(type) == "Graph"; }
bool is_worklist(QualType type) { return prelude_class(type) == "Worklist"; }
bool is_pipe(QualType type) { return prelude_class(type) == "Pipe"; }
bool is_task_pool(QualType type) { return prelude_class(type) == "TaskPool"; }
bool is_node_data(QualType type) { return prelude_class(type) == "NodeData"; }
bool is_array(QualType type) { return prelude_class(type) == "Array"; }

std::optional<ReductionOp> reduction_op(QualType type) {
  const std::string name = prelude_class(type);
  if (name == "Sum") return ReductionOp::sum;
  if (name == "Min") return ReductionOp::min;
  if (name == "Max") return ReductionOp::max;
  return std::nullopt;
}

QualType template_argument(QualType type) {
  // Prefer the argument as written (uint64_t rather than unsigned long).
  if (const auto* written = type.getNonReferenceType()->getAs<TemplateSpecializationType>())
    if (written->getNumArgs() > 0 && written->getArg(0).getKind() == TemplateArgument::Type)
      return written->getArg(0).getAsType();
  type = type.getNonReferenceType().getCanonicalType();
  const auto* spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
  if (!spec || spec->getTemplateArgs().size() == 0) return QualType();
  return spec->getTemplateArgs()[0].getAsType();
}

namespace {
bool has_annotation(const FunctionDecl* function, StringRef text) {
  for (const auto* attr : function->specific_attrs<AnnotateAttr>())
    if (attr->getAnnotation() == text) return true;
  return false;
}
}  // namespace

bool is_kernel(const FunctionDecl* function) {
  return function && has_annotation(function, "irgl::kernel");
}
bool is_program(const FunctionDecl* function) {
  return function && has_annotation(function, "irgl::program");
}

std::string prelude_function(const CallExpr* call) {
  if (!call) return "";
  const FunctionDecl* callee = call->getDirectCallee();
  if (!callee || isa<CXXMethodDecl>(callee) || !in_prelude(callee)) return "";
  return callee->getName().str();
}

const Expr* strip(const Expr* expr) {
  while (expr) {
    const Expr* next = expr->IgnoreParenImpCasts();
    if (const auto* temp = dyn_cast<MaterializeTemporaryExpr>(next))
      next = temp->getSubExpr();
    else if (const auto* bind = dyn_cast<CXXBindTemporaryExpr>(next))
      next = bind->getSubExpr();
    else if (const auto* construct = dyn_cast<CXXConstructExpr>(next);
             construct && construct->getNumArgs() == 1 &&
             construct->getConstructor()->isCopyOrMoveConstructor())
      next = construct->getArg(0);
    if (next == expr) break;
    expr = next;
  }
  return expr;
}

const VarDecl* referenced_var(const Expr* expr) {
  const auto* ref = dyn_cast_or_null<DeclRefExpr>(strip(expr));
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

std::optional<MemberCall> prelude_member_call(const Expr* expr) {
  const auto* call = dyn_cast_or_null<CXXMemberCallExpr>(strip(expr));
  if (!call) return std::nullopt;
  const CXXMethodDecl* method = call->getMethodDecl();
  if (!method || !in_prelude(method->getParent())) {
    // Inherited members (Sum::reduce comes from Reduction).
    if (!method || !in_prelude(method)) return std::nullopt;
  }
  MemberCall result;
  result.object = call->getImplicitObjectArgument();
  // The object's own class, not the base class an inherited method was
  // found in (`max.reduce(x)` is on Max, not on Reduction).
  result.class_name = prelude_class(strip(result.object)->getType());
  if (result.class_name.empty()) return std::nullopt;
  result.method = method->getNameAsString();
  return result;
}

std::optional<FieldAccess> field_access(const Expr* expr) {
  const auto* call = dyn_cast_or_null<CXXOperatorCallExpr>(strip(expr));
  if (!call || call->getOperator() != OO_Subscript || call->getNumArgs() != 2)
    return std::nullopt;
  const VarDecl* field = referenced_var(call->getArg(0));
  if (!field || !(is_node_data(field->getType()) || is_array(field->getType())))
    return std::nullopt;
  return FieldAccess{field, call->getArg(1)};
}

std::optional<EdgeRangeInfo> edge_range(const CXXForRangeStmt* loop) {
  const auto member = prelude_member_call(loop->getRangeInit());
  if (!member || member->class_name != "Graph") return std::nullopt;
  if (member->method != "out_edges" && member->method != "in_edges") return std::nullopt;
  const auto* call = cast<CXXMemberCallExpr>(strip(loop->getRangeInit()));
  EdgeRangeInfo info;
  info.graph = referenced_var(member->object);
  info.vertex = call->getArg(0);
  info.direction = member->method == "in_edges" ? EdgeDirection::in : EdgeDirection::out;
  return info;
}

const CallExpr* parallel_range(const CXXForRangeStmt* loop) {
  const auto* call = dyn_cast_or_null<CallExpr>(strip(loop->getRangeInit()));
  return call && prelude_function(call) == "parallel" ? call : nullptr;
}

const char* const kParallelPlacement =
    "'parallel(first, last)' is the range of a loop 'for (T i : parallel(first, last))' that is "
    "a statement of a task loop's body itself: the threads of a block share its iterations, and "
    "only there do they reach it together";

}  // namespace irglc::dsl
