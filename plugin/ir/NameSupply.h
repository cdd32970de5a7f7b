// NameSupply.h: the one source of the names the plugin introduces into a
// kernel (views, counters, compiled-in calls' locals, device functions).
#ifndef WEFT_IR_NAMESUPPLY_H
#define WEFT_IR_NAMESUPPLY_H

#include <map>
#include <set>
#include <string>

namespace weft::ir {

/// Every name it gives is one it never gave before, so two introduced
/// variables never collide or shadow one another, however the constructs
/// that ask for them nest (a function compiled in at two depths, nested
/// compiled-in calls, a lambda called twice). Names all start with
/// "weft_", which user code does not use.
class NameSupply {
public:
  /// Stem followed by a number the stem has not had yet: weft_row0,
  /// weft_row1, ... (a trailing digit in the stem is kept apart by '_').
  std::string numbered(const std::string &Stem) {
    const std::string Base =
        !Stem.empty() && Stem.back() >= '0' && Stem.back() <= '9' ? Stem + "_"
                                                                  : Stem;
    for (;;) {
      std::string Name = Base + std::to_string(Next[Base]++);
      if (Given.insert(Name).second)
        return Name;
    }
  }
  /// Name itself where it was not given yet, else Name_1, Name_2, ...
  std::string unique(const std::string &Name) {
    if (Given.insert(Name).second)
      return Name;
    return numbered(Name + "_");
  }

private:
  std::map<std::string, unsigned> Next;
  std::set<std::string> Given;
};

} // namespace weft::ir

#endif
