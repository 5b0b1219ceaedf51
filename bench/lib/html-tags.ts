/**
 * A linear scan of the tags of our own pages' HTML (one pass, no backtracking): enough to ask
 * what the first HTML response holds before any script runs. Not an HTML parser: entities,
 * implied end tags and foreign content are ignored, which our pages do not depend on.
 */
export interface Tag {
  /** Lower-cased, e.g. `input`. */
  name: string;
  /** `</form>` */
  closing: boolean;
  /** Lower-cased names, values as written. */
  attributes: Map<string, string>;
}

const isSpace = (char: string | undefined) =>
  char === ' ' || char === '\n' || char === '\t' || char === '\r' || char === '\f';
const isNameChar = (char: string | undefined) =>
  char !== undefined &&
  ((char >= 'a' && char <= 'z') ||
    (char >= 'A' && char <= 'Z') ||
    (char >= '0' && char <= '9') ||
    char === '-');

export function* htmlTags(html: string): Generator<Tag> {
  const lower = html.toLowerCase();
  let at = 0;
  for (;;) {
    const open = html.indexOf('<', at);
    if (open < 0) return;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      if (end < 0) return;
      at = end + 3;
      continue;
    }
    let index = open + 1;
    const closing = html[index] === '/';
    if (closing) index += 1;
    const nameStart = index;
    while (isNameChar(html[index])) index += 1;
    const name = lower.slice(nameStart, index);
    if (!name) {
      // `<!doctype …>` or a stray `<`.
      at = open + 1;
      continue;
    }
    const attributes = new Map<string, string>();
    while (index < html.length && html[index] !== '>') {
      const char = html[index];
      if (isSpace(char) || char === '/') {
        index += 1;
        continue;
      }
      const attributeStart = index;
      while (
        index < html.length &&
        !isSpace(html[index]) &&
        html[index] !== '=' &&
        html[index] !== '>' &&
        html[index] !== '/'
      ) {
        index += 1;
      }
      const attribute = lower.slice(attributeStart, index);
      let value = '';
      if (html[index] === '=') {
        index += 1;
        const quote = html[index];
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, index + 1);
          if (end < 0) return;
          value = html.slice(index + 1, end);
          index = end + 1;
        } else {
          const valueStart = index;
          while (index < html.length && !isSpace(html[index]) && html[index] !== '>') index += 1;
          value = html.slice(valueStart, index);
        }
      }
      if (attribute) attributes.set(attribute, value);
      // A lone `=` names nothing: step over it so the scan always moves on.
      else index += 1;
    }
    yield { name, closing, attributes };
    at = index + 1;
    // Script and style text is not markup.
    if (!closing && (name === 'script' || name === 'style')) {
      const end = lower.indexOf(`</${name}`, at);
      if (end < 0) return;
      at = end;
    }
  }
}

export interface FormInHtml {
  /** A form that posts, with an e-mail (or user name) field, a password field and a submit button. */
  usable: boolean;
  /** What is missing, e.g. "no form in HTML". */
  problem?: string;
}

/**
 * Whether the HTML already holds a sign-in form a person can fill in and post without script:
 * a `<form method="post">` containing an e-mail or user-name input, a password input and a
 * submit button. The best form found decides what is reported missing.
 */
export function signInFormInHtml(html: string): FormInHtml {
  let forms = 0;
  let inside: { post: boolean; email: boolean; password: boolean; submit: boolean } | undefined;
  let best: string[] | undefined;
  for (const tag of htmlTags(html)) {
    if (tag.name === 'form') {
      if (tag.closing && inside) {
        const missing = [
          ...(inside.post ? [] : ['method post']),
          ...(inside.email ? [] : ['e-mail input']),
          ...(inside.password ? [] : ['password input']),
          ...(inside.submit ? [] : ['submit button']),
        ];
        if (!missing.length) return { usable: true };
        if (!best || missing.length < best.length) best = missing;
        inside = undefined;
      } else if (!tag.closing) {
        forms += 1;
        const post = (tag.attributes.get('method') ?? '').toLowerCase() === 'post';
        inside = { post, email: false, password: false, submit: false };
      }
      continue;
    }
    if (!inside || tag.closing) continue;
    const type = (tag.attributes.get('type') ?? '').toLowerCase();
    const autocomplete = (tag.attributes.get('autocomplete') ?? '').toLowerCase();
    const fieldName = (tag.attributes.get('name') ?? '').toLowerCase();
    if (tag.name === 'input') {
      if (
        type === 'email' ||
        autocomplete.includes('username') ||
        fieldName === 'email' ||
        fieldName === 'username'
      ) {
        inside.email = true;
      }
      if (type === 'password') inside.password = true;
      if (type === 'submit') inside.submit = true;
    }
    if (tag.name === 'button' && (type === '' || type === 'submit')) inside.submit = true;
  }
  if (!forms) return { usable: false, problem: 'no form in HTML' };
  return { usable: false, problem: `form in HTML without ${(best ?? ['its end tag']).join(', ')}` };
}

/** The scripts an HTML page makes the browser fetch at once: module entries and preloads. */
export function entryScriptSources(html: string): string[] {
  const sources = new Set<string>();
  for (const tag of htmlTags(html)) {
    if (tag.closing) continue;
    const src = tag.attributes.get('src');
    if (tag.name === 'script' && src) sources.add(src);
    const rel = (tag.attributes.get('rel') ?? '').toLowerCase();
    const href = tag.attributes.get('href');
    if (tag.name === 'link' && rel === 'modulepreload' && href) sources.add(href);
  }
  return [...sources];
}
