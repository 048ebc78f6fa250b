/**
 * A small, strict XML 1.0 parser for tests that read back what mockdev writes (JUnit reports):
 * elements, attributes, text, the five predefined entities and character references, comments
 * and the XML declaration. Anything not well-formed throws, saying where: a tag left open or
 * closed out of order, an unquoted or repeated attribute, a raw `<` or `&` in text or a value,
 * an unknown entity, a character XML cannot carry, text or a second element after the root.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its children's not included), entities resolved. */
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/;
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    const before = this.text.slice(0, this.pos);
    const line = before.split('\n').length;
    const column = this.pos - before.lastIndexOf('\n');
    throw new Error(`XML not well-formed at line ${line}, column ${column}: ${what}`);
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  expect(s: string): void {
    if (!this.startsWith(s)) this.fail(`expected ${JSON.stringify(s)}`);
    this.pos += s.length;
  }

  spaces(): void {
    while (/[ \t\r\n]/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  name(): string {
    const m = NAME.exec(this.text.slice(this.pos));
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  /** Text with its references resolved, up to `end` (not consumed). */
  chars(end: string, inAttribute: boolean): string {
    let out = '';
    while (!this.startsWith(end)) {
      const c = this.text[this.pos];
      if (c === undefined) this.fail(`unexpected end, expected ${JSON.stringify(end)}`);
      if (c === '<') this.fail('a raw "<" in text or an attribute value');
      if (inAttribute && c === '\n') this.fail('a raw line break in an attribute value (write &#10;)');
      if (NOT_XML_CHAR.test(c)) this.fail(`U+${c.charCodeAt(0).toString(16)} is not an XML character`);
      if (c === '&') {
        const semi = this.text.indexOf(';', this.pos);
        if (semi < 0) this.fail('an "&" that starts no reference');
        const ref = this.text.slice(this.pos + 1, semi);
        if (/^#x[0-9a-fA-F]+$/.test(ref)) out += String.fromCodePoint(parseInt(ref.slice(2), 16));
        else if (/^#[0-9]+$/.test(ref)) out += String.fromCodePoint(Number(ref.slice(1)));
        else if (ref in ENTITIES) out += ENTITIES[ref];
        else this.fail(`unknown entity &${ref};`);
        this.pos = semi + 1;
      } else {
        out += c;
        this.pos++;
      }
    }
    return out;
  }

  misc(): void {
    for (;;) {
      this.spaces();
      if (this.startsWith('<!--')) {
        const end = this.text.indexOf('-->', this.pos);
        if (end < 0) this.fail('a comment left open');
        this.pos = end + 3;
      } else return;
    }
  }

  element(): XmlElement {
    this.expect('<');
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = this.pos;
      this.spaces();
      if (this.startsWith('/>')) {
        this.pos += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (this.startsWith('>')) {
        this.pos++;
        break;
      }
      if (this.pos === before) this.fail('expected a space before an attribute');
      const attr = this.name();
      if (attr in attributes) this.fail(`attribute ${attr} repeated`);
      this.spaces();
      this.expect('=');
      this.spaces();
      const quote = this.text[this.pos];
      if (quote !== '"' && quote !== "'") this.fail(`the value of ${attr} is not quoted`);
      this.pos++;
      attributes[attr] = this.chars(quote, true);
      this.pos++;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (this.startsWith('</')) {
        this.pos += 2;
        const closing = this.name();
        if (closing !== name) this.fail(`</${closing}> closes <${name}>`);
        this.spaces();
        this.expect('>');
        return { name, attributes, children, text };
      }
      if (this.startsWith('<!--')) this.misc();
      else if (this.startsWith('<')) children.push(this.element());
      else text += this.chars('<', false);
    }
  }
}

/** Parses a whole document: an optional declaration, one root element, nothing else but space and comments. */
export function parseXml(text: string): XmlElement {
  const r = new Reader(text);
  if (r.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0) r.fail('the XML declaration is left open');
    r.pos = end + 2;
  }
  r.misc();
  const root = r.element();
  r.misc();
  if (r.pos !== text.length) r.fail('something after the root element');
  return root;
}

/** Every element named `name` under (and including) `root`, in document order. */
export function elementsNamed(root: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (e: XmlElement) => {
    if (e.name === name) out.push(e);
    e.children.forEach(visit);
  };
  visit(root);
  return out;
}
