package io.tfstream.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SQL script cut into statements at each {@code ;} outside quotes ({@code '...'} with {@code ''}
 * inside, {@code "..."}, {@code `...`}) and comments ({@code --} to the end of the line, {@code /*
 * ... *}{@code /}); blank statements are dropped.
 */
final class SqlScript {
    private static final Pattern SET =
            Pattern.compile("(?is)^SET\\s+'([^']*)'\\s*=\\s*'([^']*)'\\s*$");

    private SqlScript() {}

    static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = script.length();
        int i = 0;
        while (i < n) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                int end = script.indexOf('\n', i);
                i = end < 0 ? n : end;
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                cur.append(' ');
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                int j = i + 1;
                while (j < n) {
                    if (script.charAt(j) == c) {
                        if (c == '\'' && j + 1 < n && script.charAt(j + 1) == '\'') {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                int end = Math.min(j + 1, n);
                cur.append(script, i, end);
                i = end;
                continue;
            }
            if (c == ';') {
                add(out, cur);
                cur.setLength(0);
            } else {
                cur.append(c);
            }
            i++;
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder s) {
        String t = s.toString().strip();
        if (!t.isEmpty()) {
            out.add(t);
        }
    }

    /** {@code {key, value}} of a {@code SET 'key' = 'value'} statement, or null. */
    static String[] set(String statement) {
        Matcher m = SET.matcher(statement);
        return m.matches() ? new String[] {m.group(1), m.group(2)} : null;
    }

    /** The statement's first keyword in upper case ({@code SELECT}, {@code INSERT}, ...). */
    static String keyword(String statement) {
        int i = 0;
        while (i < statement.length()
                && (Character.isLetter(statement.charAt(i)) || statement.charAt(i) == '_')) {
            i++;
        }
        return statement.substring(0, i).toUpperCase(Locale.ROOT);
    }

    /** The statement shortened to one line for an error message. */
    static String summary(String statement) {
        String one = statement.replaceAll("\\s+", " ");
        return one.length() <= 80 ? one : one.substring(0, 77) + "...";
    }
}
