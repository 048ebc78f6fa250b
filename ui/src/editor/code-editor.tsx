/**
 * The body's code editor (CodeMirror 6), loaded on demand by body-field.tsx (a dynamic import:
 * its own chunk, outside the first screen's bundle). JSON highlighting when the content type is
 * JSON, Handlebars `{{…}}` marked in any body, line numbers, bracket matching, undo history; Tab
 * is left to move the focus (no keyboard trap). The edited text is the `value` prop: each change
 * goes to `onChange`, and a new value from outside (Format, a reload) replaces the text.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useLayoutEffect, useRef } from 'react';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Highlight as JSON (the content type is JSON). */
  json: boolean;
  /** ARIA attributes of the editable text: its label, description, invalid state. */
  aria: Record<string, string>;
  /** Height in lines at least. */
  rows: number;
  /** Receives a way to focus the editor (the label's click). */
  focusRef?: { current: (() => void) | null };
}

/** JSON's tokens in the theme's colours (editor.css: each at least 4.5:1 in both themes). */
const jsonStyle = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--code-property)' },
  { tag: tags.string, color: 'var(--code-string)' },
  { tag: tags.number, color: 'var(--code-number)' },
  { tag: [tags.bool, tags.null], color: 'var(--code-keyword)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

/** Handlebars expressions marked in any body: `{{name}}`, `{{{raw}}}`, `{{#if …}}`, `{{/if}}`. */
const templateMarks = new MatchDecorator({
  regexp: /\{\{\{?[^{}]*\}?\}\}/g,
  decorate: (add, from, to, match) =>
    add(from, to, /^\{\{\{?\s*[#/^~]|^\{\{\{?\s*else\b/.test(match[0]) ? blockMark : exprMark),
});
const exprMark = Decoration.mark({ class: 'cm-template' });
const blockMark = Decoration.mark({ class: 'cm-template cm-template-block' });
const templates = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = templateMarks.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = templateMarks.updateDeco(u, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

const theme = EditorView.theme({
  '&': {
    color: 'var(--fg)',
    backgroundColor: 'var(--bg)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    fontSize: '13px',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
  // The editor grows with its text (lines wrap): the screen scrolls, never a box inside it.
  '.cm-scroller': { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace" },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-alt)',
    color: 'var(--fg-muted)',
    borderRight: '1px solid var(--border)',
    borderRadius: '6px 0 0 6px',
  },
  '.cm-activeLine': { backgroundColor: 'var(--code-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)', color: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--code-selection)',
  },
  '&.cm-focused .cm-matchingBracket': {
    backgroundColor: 'var(--code-bracket)',
    outline: '1px solid var(--fg-muted)',
  },
  '&.cm-focused .cm-nonmatchingBracket': { color: 'var(--danger)', outline: '1px solid var(--danger)' },
  '.cm-template': { color: 'var(--code-template)', backgroundColor: 'var(--code-template-bg)' },
  '.cm-template-block': { fontWeight: '700' },
});

/** The language part: JSON parsing and its colours, or plain text. */
const languageFor = (isJson: boolean): Extension => (isJson ? [json(), syntaxHighlighting(jsonStyle)] : []);

export function CodeEditor({ value, onChange, json: isJson, aria, rows, focusRef }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const attributes = useRef(new Compartment());
  const changed = useRef(onChange);
  changed.current = onChange;

  useLayoutEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          indentOnInput(),
          bracketMatching(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          theme,
          templates,
          EditorView.theme({ '.cm-content, .cm-gutter': { minHeight: `${rows * 1.5}em` } }),
          language.current.of(languageFor(isJson)),
          attributes.current.of(EditorView.contentAttributes.of(aria)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    if (focusRef) focusRef.current = () => v.focus();
    return () => {
      v.destroy();
      view.current = null;
      if (focusRef) focusRef.current = null;
    };
    // Made once; the props that change are applied below.
  }, []);

  // A value from outside (Format, the endpoint saved or changed elsewhere) replaces the text.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: language.current.reconfigure(languageFor(isJson)) });
  }, [isJson]);

  const ariaKey = JSON.stringify(aria);
  useEffect(() => {
    view.current?.dispatch({
      effects: attributes.current.reconfigure(EditorView.contentAttributes.of(aria)),
    });
    // aria is a new object on each render: compared by its text.
  }, [ariaKey]);

  return <div ref={host} className="code-editor" />;
}
