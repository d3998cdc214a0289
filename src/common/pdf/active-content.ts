/**
 * Elements a payslip or e-mail template may not hold (issue 41): scripts, frames and embedded
 * objects (a data: iframe holding another one detached the PDF browser's frame and stopped it;
 * `<object data="file:///...">` asks for a local file), forms and their controls, and what
 * redirects or re-bases a page. A pattern of literal names only, so it cannot backtrack.
 */
const ACTIVE =
  /<\s*\/?\s*(script|noscript|iframe|frame|frameset|object|embed|applet|form|input|button|textarea|select|base|portal|link|meta)\b/gi;
const META_CHARSET = /^<\s*meta\s+charset\s*=\s*["']?[\w-]{1,40}["']?\s*\/?>/i;

/** The first element of `html` a template may not hold, with its offset; null when there is none. */
export function activeContent(html: string): { tag: string; index: number } | null {
  ACTIVE.lastIndex = 0;
  for (let m = ACTIVE.exec(html); m; m = ACTIVE.exec(html)) {
    const tag = m[1].toLowerCase();
    if (tag === 'meta' && META_CHARSET.test(html.slice(m.index, m.index + 120))) continue;
    return { tag, index: m.index };
  }
  return null;
}

/**
 * A Content-Security-Policy for a rendered page, in a `<meta>` at its start: behind the request
 * interception and the element check, nothing but inline styles and data: images and fonts loads.
 */
export const RENDER_CSP =
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; font-src data:; ` +
  `style-src 'unsafe-inline' data:; frame-src 'none'; child-src 'none'; object-src 'none'; form-action 'none'; base-uri 'none'">`;
