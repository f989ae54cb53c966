package dev.mcpfusion.processor;

/**
 * Finds the {@code java.util.regex} constructs that ECMA-262 (the JSON Schema regular expression
 * dialect) lacks or reads differently, so a {@code @Pattern} is published only when an agent's
 * validator would agree with the server.
 */
final class PatternPortability {
  private PatternPortability() {}

  /** A description of the first Java-only construct, or {@code null} if the pattern is portable. */
  static String javaOnly(String regex) {
    boolean inClass = false;
    int classDepth = 0;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      char next = i + 1 < regex.length() ? regex.charAt(i + 1) : 0;
      if (c == '\\') {
        switch (next) {
          case 'A':
          case 'Z':
          case 'z':
          case 'G':
            return "the anchor \\" + next;
          case 'Q':
          case 'E':
            return "\\Q...\\E quoting";
          case 'p':
          case 'P':
            return "the character property \\" + next + "{...}";
          case 'h':
          case 'H':
          case 'R':
          case 'X':
          case 'V':
          case 'e':
            return "the escape \\" + next;
          default:
            break;
        }
        i++;
        continue;
      }
      if (inClass) {
        if (c == '[') {
          classDepth++;
          return "a nested character class";
        }
        if (c == '&' && next == '&') {
          return "character class intersection (&&)";
        }
        if (c == ']') {
          inClass = false;
        }
        continue;
      }
      if (c == '[') {
        inClass = true;
        if (next == '^') {
          i++;
        }
        if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
          i++;
        }
        continue;
      }
      if (c == '(' && next == '?') {
        char k = i + 2 < regex.length() ? regex.charAt(i + 2) : 0;
        char k2 = i + 3 < regex.length() ? regex.charAt(i + 3) : 0;
        if (k == '>') {
          return "an atomic group (?>...)";
        }
        if (k == '<' && (k2 == '=' || k2 == '!')) {
          return "a lookbehind (?<" + k2 + "...)";
        }
        if (k != ':' && k != '=' && k != '!' && k != '<') {
          return "an inline flag group (?" + k + "...)";
        }
      }
      if ((c == '*' || c == '+' || c == '?' || c == '}') && next == '+') {
        return "a possessive quantifier (" + c + "+)";
      }
    }
    return classDepth > 0 ? "a nested character class" : null;
  }
}
