// Where to send someone after sign-in: only a path on this site. Browsers strip tabs and newlines from
// URLs and read `\` as `/`, so `/\t/evil.example` or `/\evil.example` become `//evil.example`, another
// origin; anything with a control character, a backslash, or `//` (also once decoded) is refused, and
// what is left must resolve to our own origin and stay a single-slash path after normalisation.

const MAX_LENGTH = 2048;
/** Used only to resolve the path when the public origin is not known; any fixed origin works. */
const PLACEHOLDER_ORIGIN = "http://crows-nest.invalid";
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

function decodedForms(value: string): string[] | null {
  const forms = [value];
  let current = value;
  // Twice is enough to see `%252F` as `/`; a value that cannot be decoded is refused.
  for (let i = 0; i < 2 && current.includes("%"); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return null;
    }
    forms.push(current);
  }
  return forms;
}

export function safeReturnTo(value: string | null | undefined, publicOrigin: string = PLACEHOLDER_ORIGIN): string {
  if (!value || value.length > MAX_LENGTH || !value.startsWith("/")) return "/";
  const forms = decodedForms(value);
  if (!forms || forms.some((f) => UNSAFE.test(f) || f.startsWith("//") || f.includes("/./") || f.includes("/../"))) return "/";
  let url: URL;
  try {
    url = new URL(value, publicOrigin);
  } catch {
    return "/";
  }
  if (url.origin !== new URL(publicOrigin).origin || url.pathname.startsWith("//")) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("/auth/") ? "/" : path;
}
