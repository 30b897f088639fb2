/** `$` variable suggestions in tag inputs (§4: a value ending in $ shows them; §5: the allowed names). */
import { TEMPLATE_VARIABLES } from '../../../lib/constants.ts';

const TRAILING = /\$\{?([a-z_]*)$/;

/** The variables to suggest for what was typed, or null when the value does not end in a `$` reference. */
export function variableSuggestions(value: string): string[] | null {
  const m = TRAILING.exec(value);
  if (!m) return null;
  const partial = m[1];
  // `${title}` is complete only with its brace; `$title` with nothing after still suggests completions.
  const matches = TEMPLATE_VARIABLES.filter((v) => v.startsWith(partial));
  return matches.length > 0 ? [...matches] : null;
}

/** Replaces the trailing `$…` with the chosen `${variable}`. */
export function applyVariable(value: string, variable: string): string {
  return value.replace(TRAILING, `\${${variable}}`);
}
