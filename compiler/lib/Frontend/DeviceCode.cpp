//===- DeviceCode.cpp - Driver code an outlined loop runs on the GPU ------===//

#include "DeviceCode.h"

#include <algorithm>
#include <set>

#include "DslModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace irglc {

using namespace clang;

namespace {

// C math functions with device overloads in CUDA, by name (called
// unqualified, as the driver's text is compiled unchanged).
const std::set<std::string>& device_math() {
  static const std::set<std::string> names = {
      "fabs", "fabsf", "sqrt", "sqrtf", "exp", "expf", "log", "logf", "pow", "powf",
      "floor", "floorf", "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf", "abs"};
  return names;
}

bool is_number(QualType type) {
  type = type.getNonReferenceType();
  return type->isArithmeticType() || type->isEnumeralType();
}

// A type or enumerator declared inside a function (the driver): the
// generated loop struct, at namespace scope, does not see it.
bool declared_in_function(const Decl* decl) {
  return decl && decl->getDeclContext()->getRedeclContext()->isFunctionOrMethod();
}
bool names_local_type(QualType type) {
  for (;;) {
    if (const auto* typedef_type = type->getAs<TypedefType>()) {
      if (declared_in_function(typedef_type->getDecl())) return true;
      type = typedef_type->getDecl()->getUnderlyingType();
      continue;
    }
    if (const auto* tag = type->getAsTagDecl()) return declared_in_function(tag);
    return false;
  }
}

// Reads an expression of driver code into `code`: the variables it reads
// and writes, the reductions whose value it reads; the first construct the
// device cannot run sets code.why and stops.
class ExpressionReader {
 public:
  ExpressionReader(FrontendContext& context, DeviceCode& code, bool may_write)
      : context_(context), code_(code), may_write_(may_write) {}

  bool read(const Expr* expr) {
    expr = expr->IgnoreParenImpCasts();
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral>(expr))
      return true;
    if (const auto* ref = dyn_cast<DeclRefExpr>(expr)) return variable(ref);
    if (const auto* call = dyn_cast<CXXMemberCallExpr>(expr)) return member_call(call);
    if (const auto* call = dyn_cast<CallExpr>(expr)) return function_call(call);
    if (const auto* op = dyn_cast<UnaryOperator>(expr)) return unary(op);
    if (const auto* op = dyn_cast<BinaryOperator>(expr)) return binary(op);
    if (const auto* op = dyn_cast<ConditionalOperator>(expr))
      return read(op->getCond()) && read(op->getTrueExpr()) && read(op->getFalseExpr());
    if (const auto* cast = dyn_cast<ExplicitCastExpr>(expr)) {
      if (!is_number(cast->getType())) return refuse(expr, "casts to a type that is not a number");
      if (names_local_type(cast->getTypeAsWritten()))
        return refuse(expr, "casts to a type the program declares inside its body");
      return read(cast->getSubExpr());
    }
    if (const auto* cleanups = dyn_cast<ExprWithCleanups>(expr)) return read(cleanups->getSubExpr());
    if (const auto* temporary = dyn_cast<MaterializeTemporaryExpr>(expr))
      return read(temporary->getSubExpr());
    return refuse(expr, "is not arithmetic on numbers and reduction values");
  }

  bool refuse(const Stmt* where, const std::string& why) {
    if (code_.why.empty())
      code_.why = "'" + context_.text(where->getSourceRange()) + "' " + why;
    code_.kind = DeviceCode::Kind::host;
    return false;
  }

 private:
  const VarDecl* reduction(const Expr* expr) const {
    const VarDecl* var = dsl::referenced_var(expr);
    return var && context_.reductions.count(var) ? var : nullptr;
  }

  bool variable(const DeclRefExpr* ref) {
    if (isa<EnumConstantDecl>(ref->getDecl()))
      return !declared_in_function(Decl::castFromDeclContext(ref->getDecl()->getDeclContext())) ||
             refuse(ref, "is an enumerator the program declares inside its body");
    const auto* var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var) return refuse(ref, "is not a variable");
    if (context_.reductions.count(var))
      return refuse(ref, "uses a reduction other than by reading r.value() or resetting it");
    if (!is_number(var->getType())) return refuse(ref, "is not a number");
    if (names_local_type(var->getType()))
      return refuse(ref, "has a type the program declares inside its body");
    if (var->hasGlobalStorage() && !var->isLocalVarDeclOrParm()) {
      if (var->isConstexpr()) return true;  // compiled into the device code as it is
      return refuse(ref, "is a global variable, which the GPU does not see (make it constexpr)");
    }
    const std::string name = var->getNameAsString();
    for (const Variable& known : code_.reads)
      if (known.name == name) return true;
    code_.reads.push_back(
        {name, context_.type_name(var->getType().getNonReferenceType().getUnqualifiedType())});
    return true;
  }

  bool member_call(const CXXMemberCallExpr* call) {
    const VarDecl* var = reduction(call->getImplicitObjectArgument());
    const auto* method = call->getMethodDecl();
    const bool reads_value =
        method && (isa<CXXConversionDecl>(method) || method->getNameAsString() == "value");
    if (!var || !reads_value) return refuse(call, "calls a method on the host");
    const std::string name = var->getNameAsString();
    auto& read = code_.reductions_read;
    if (std::find(read.begin(), read.end(), name) == read.end()) read.push_back(name);
    return true;
  }

  bool function_call(const CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    const bool math = callee && device_math().count(callee->getNameAsString()) &&
                      !isa<CXXOperatorCallExpr>(call) &&
                      context_.ast().getSourceManager().isInSystemHeader(callee->getLocation());
    if (!math) return refuse(call, "calls a host function");
    for (const Expr* arg : call->arguments())
      if (!read(arg)) return false;
    return true;
  }

  bool write(const Expr* target, const Stmt* where) {
    const VarDecl* var = dsl::referenced_var(target);
    if (!may_write_ || !var || !var->isLocalVarDeclOrParm())
      return refuse(where, "assigns a variable");
    if (!read(target)) return false;
    code_.writes.push_back(var->getNameAsString());
    return true;
  }

  bool unary(const UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) return write(op->getSubExpr(), op);
    if (op->getOpcode() == UO_AddrOf || op->getOpcode() == UO_Deref)
      return refuse(op, "takes an address or dereferences");
    return read(op->getSubExpr());
  }

  bool binary(const BinaryOperator* op) {
    if (op->isAssignmentOp()) return write(op->getLHS(), op) && read(op->getRHS());
    return read(op->getLHS()) && read(op->getRHS());
  }

  FrontendContext& context_;
  DeviceCode& code_;
  bool may_write_;
};

bool is_break(const Stmt* stmt) {
  if (const auto* block = dyn_cast_or_null<CompoundStmt>(stmt))
    return block->size() == 1 && isa<BreakStmt>(block->body_front());
  return isa_and_nonnull<BreakStmt>(stmt);
}

// `T x = init;` of a number: a local of the device code.
DeviceCode declaration(const DeclStmt* decl, FrontendContext& context) {
  DeviceCode code;
  const auto* var = decl->isSingleDecl() ? dyn_cast<VarDecl>(decl->getSingleDecl()) : nullptr;
  ExpressionReader reader(context, code, false);
  if (!var || !var->hasInit() || var->isStaticLocal() || !is_number(var->getType()) ||
      var->getType()->isReferenceType()) {
    reader.refuse(decl, "is not the declaration of one number with its value");
    return code;
  }
  if (names_local_type(var->getType())) {
    reader.refuse(decl, "has a type the program declares inside its body");
    return code;
  }
  code.kind = DeviceCode::Kind::local;
  code.declared = {var->getNameAsString(), context.type_name(var->getType())};
  reader.read(var->getInit());
  return code;
}

}  // namespace

DeviceCode device_statement(const Stmt* stmt, FrontendContext& context) {
  if (const auto* decl = dyn_cast<DeclStmt>(stmt)) return declaration(decl, context);
  DeviceCode code;
  ExpressionReader reader(context, code, false);
  if (const auto* branch = dyn_cast<IfStmt>(stmt)) {
    if (branch->getInit() || branch->getConditionVariable() || branch->getElse() ||
        !is_break(branch->getThen())) {
      reader.refuse(stmt, "is an if other than 'if (condition) break;'");
      return code;
    }
    code.kind = DeviceCode::Kind::break_if;
    reader.read(branch->getCond());
    return code;
  }
  const auto* assign = dyn_cast<CXXOperatorCallExpr>(stmt);
  const VarDecl* target = assign && assign->getOperator() == OO_Equal && assign->getNumArgs() == 2
                              ? dsl::referenced_var(assign->getArg(0))
                              : nullptr;
  if (!target || !context.reductions.count(target)) {
    reader.refuse(stmt, "is neither a number's declaration, a reduction's reset nor "
                        "'if (condition) break;'");
    return code;
  }
  code.kind = DeviceCode::Kind::reset;
  code.reduction = target->getNameAsString();
  reader.read(assign->getArg(1));
  return code;
}

DeviceCode device_loop_init(const Stmt* init, FrontendContext& context) {
  if (const auto* decl = dyn_cast_or_null<DeclStmt>(init)) return declaration(decl, context);
  DeviceCode code;
  code.why = "its init does not declare the loop's counter";
  return code;
}

DeviceCode device_expression(const Stmt* stmt, FrontendContext& context, bool may_write) {
  DeviceCode code;
  code.kind = DeviceCode::Kind::expression;
  ExpressionReader reader(context, code, may_write);
  if (const auto* expr = dyn_cast_or_null<Expr>(stmt)) reader.read(expr);
  else reader.refuse(stmt, "is not an expression");
  return code;
}

}  // namespace irglc
