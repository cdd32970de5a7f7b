// KernelText.cpp: polynomials and affine forms as kernel text.
#include "ir/KernelText.h"

#include <algorithm>
#include <cctype>

namespace weft::ir {

std::optional<std::string> kernelText(const Polynomial &P,
                                      const std::set<std::string> &Hidden) {
  if (P.isZero())
    return std::string("(weft::index_t)0");
  std::string Text;
  for (const auto &[Monomial, Coefficient] : P.terms()) {
    std::string Term;
    for (const std::string &Symbol : Monomial) {
      const bool Capture = !Symbol.empty() && Symbol.front() == '$';
      const std::string Name = Capture ? Symbol.substr(1) : Symbol;
      const bool Identifier =
          !Name.empty() && !std::isdigit(static_cast<unsigned char>(Name[0])) &&
          std::all_of(Name.begin(), Name.end(), [](char C) {
            return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
          });
      if (!Identifier || (!Capture && Hidden.count(Name)))
        return std::nullopt;
      Term +=
          (Term.empty() ? "" : " * ") + std::string("(weft::index_t)") + Name;
    }
    const std::int64_t Magnitude = Coefficient < 0 ? -Coefficient : Coefficient;
    if (Term.empty())
      Term = "(weft::index_t)" + std::to_string(Magnitude);
    else if (Magnitude != 1)
      Term = std::to_string(Magnitude) + " * " + Term;
    Text += Text.empty() ? (Coefficient < 0 ? "-" : "")
                         : (Coefficient < 0 ? " - " : " + ");
    Text += Term;
  }
  return "(" + Text + ")";
}

std::optional<Polynomial> exactQuotient(const Polynomial &P,
                                        const Polynomial &Divisor) {
  if (Divisor.terms().size() != 1)
    return std::nullopt;
  const auto &[Factors, K] = *Divisor.terms().begin();
  Polynomial Q;
  for (const auto &[Monomial, Coefficient] : P.terms()) {
    if (Coefficient % K != 0)
      return std::nullopt;
    Polynomial::Monomial Rest = Monomial;
    for (const std::string &F : Factors) {
      auto It = std::find(Rest.begin(), Rest.end(), F);
      if (It == Rest.end())
        return std::nullopt;
      Rest.erase(It);
    }
    Polynomial Term = Polynomial::constant(Coefficient / K);
    for (const std::string &S : Rest)
      Term = *Term.times(Polynomial::symbol(S));
    std::optional<Polynomial> Sum = Q.plus(Term);
    if (!Sum)
      return std::nullopt;
    Q = std::move(*Sum);
  }
  return Q;
}

std::optional<std::string> formText(const AffineForm &F,
                                    const std::set<std::string> &Hidden) {
  std::optional<std::string> Text =
      F.Offset.isZero() ? std::string() : kernelText(F.Offset, Hidden);
  if (!Text)
    return std::nullopt;
  if (!Text->empty()) // the terms without kernelText's parentheses
    *Text = Text->substr(1, Text->size() - 2);
  for (const auto &[Variable, Coefficient] : F.Coefficients) {
    const std::optional<std::int64_t> K = Coefficient.constantValue();
    if (!K)
      return std::nullopt;
    std::string Term = "(weft::index_t)(" + Variable + ")";
    if (*K != 1 && *K != -1)
      Term += " * " + std::to_string(*K < 0 ? -*K : *K);
    *Text += Text->empty() ? (*K < 0 ? "-" : "") : (*K < 0 ? " - " : " + ");
    *Text += Term;
  }
  return Text->empty() ? "(weft::index_t)0" : "(" + *Text + ")";
}

} // namespace weft::ir
