/**
 * The kernel editor: CodeMirror 6 with the language's highlighting, the
 * verifier's diagnostics at their spans (@codemirror/lint), and an alarm's
 * accesses marked in two colours, thread 1 and thread 2.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { classHighlighter, tagHighlighter, tags } from '@lezer/highlight';
import { lintGutter, setDiagnostics, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState, StateEffect, StateField, Transaction, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { babyCuda, cudaC, type LanguageName } from './languages.js';
import type { DiagnosticView, Mark } from './protocol.js';

const setMarks = StateEffect.define<readonly Mark[]>();

const markClass = (m: Mark): string => (m.thread === 1 ? 'cm-access-1' : m.thread === 2 ? 'cm-access-2' : 'cm-access-both');

/** Marks are dropped on any edit: they belong to the text that was verified. */
const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const ranges: Range<Decoration>[] = e.value
        .filter((m) => m.end <= tr.state.doc.length)
        .map((m) => Decoration.mark({ class: markClass(m), attributes: { title: m.label, 'data-label': m.label } }).range(m.start, Math.max(m.end, m.start + 1)));
      return Decoration.set(ranges, true);
    }
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** What changed the text: the page (an example, a link), the user, or the user pasting over all of it (someone else's kernel, not an edit of this file). */
export type TextChange = { readonly kind: 'loaded' } | { readonly kind: 'edited' } | { readonly kind: 'replaced'; readonly text: string };

function changeOf(tr: Transaction): TextChange {
  if (tr.annotation(Transaction.userEvent) === undefined) return { kind: 'loaded' };
  if (!tr.isUserEvent('input.paste') && !tr.isUserEvent('input.drop')) return { kind: 'edited' };
  const before = tr.startState.doc;
  let whole = before.toString().trim() === '';
  tr.changes.iterChangedRanges((fromA, toA) => {
    if (fromA === 0 && toA === before.length) whole = true;
  });
  return whole ? { kind: 'replaced', text: tr.state.doc.toString() } : { kind: 'edited' };
}

/** A zero-width span (`missing ;` after a token) as one character the editor can underline: the one before it at a line's end. */
function underlined(from: number, to: number, doc: EditorState['doc']): { from: number; to: number } {
  if (to > from || doc.length === 0) return { from, to };
  const line = doc.lineAt(from);
  if (from < line.to) return { from, to: from + 1 };
  if (from > line.from) return { from: from - 1, to: from };
  return { from, to: Math.min(from + 1, doc.length) };
}

export interface Editor {
  readonly view: EditorView;
  text(): string;
  setText(text: string): void;
  /** the text replaced as an edit of the user's (undoable, and the page counts it as one) */
  replaceText(text: string): void;
  setLanguage(language: LanguageName): void;
  /** marks an alarm's accesses (scrolling to the first when asked: not while someone types) */
  showMarks(marks: readonly Mark[], scroll: boolean): void;
  /**
   * Selects where `spans` are (whole lines from the first to the last, or
   * the span from the first start to the last end) and scrolls it into view;
   * the editor keeps or leaves the focus as it was.
   */
  jumpTo(spans: readonly { readonly start: number; readonly end: number }[], how: 'lines' | 'span'): void;
  showDiagnostics(diagnostics: readonly DiagnosticView[]): void;
}

export function createEditor(parent: HTMLElement, text: string, language: LanguageName, onRun: () => void, onChange: (change: TextChange) => void): Editor {
  const languages = new Compartment();
  const languageOf = (l: LanguageName): Extension => (l === 'cu' ? cudaC : babyCuda);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        // classes, not inline colours: style.css colours them for the light and the dark theme
        syntaxHighlighting(classHighlighter),
        syntaxHighlighting(tagHighlighter([{ tag: tags.standard(tags.variableName), class: 'tok-builtin' }])),
        languages.of(languageOf(language)),
        lintGutter(),
        marksField,
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        // indentWithTab keeps Tab in the editor; Esc then Tab leaves it (CodeMirror's tab focus mode), which the page's hint says
        EditorView.contentAttributes.of({ 'aria-label': 'Kernel source', 'aria-describedby': 'editor-hint' }),
        EditorView.updateListener.of((u) => {
          for (const tr of u.transactions) if (tr.docChanged) onChange(changeOf(tr));
        }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (t) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } }),
    replaceText: (t) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t }, userEvent: 'input.fix' }),
    setLanguage: (l) => view.dispatch({ effects: languages.reconfigure(languageOf(l)) }),
    showMarks: (marks, scroll) => {
      view.dispatch({ effects: setMarks.of(marks) });
      const first = marks[0];
      if (scroll && first !== undefined) view.dispatch({ effects: EditorView.scrollIntoView(first.start, { y: 'center' }) });
    },
    jumpTo: (spans, how) => {
      if (spans.length === 0) return;
      const doc = view.state.doc;
      const from = Math.min(...spans.map((s) => s.start), doc.length);
      const to = Math.min(Math.max(...spans.map((s) => s.end)), doc.length);
      const [start, end] = how === 'lines' ? [doc.lineAt(from).from, doc.lineAt(to).to] : [from, to];
      // the head at the start: a range taller than the editor is shown from its first line
      view.dispatch({ selection: EditorSelection.single(end, start), effects: EditorView.scrollIntoView(EditorSelection.range(end, start), { y: 'center' }) });
    },
    showDiagnostics: (ds) => {
      const length = view.state.doc.length;
      const lint: LintDiagnostic[] = ds.map((d) => ({
        ...underlined(Math.min(d.start, length), Math.min(Math.max(d.end, d.start), length), view.state.doc),
        severity: d.severity === 'note' ? 'info' : d.severity,
        message: `${d.severity}[${d.code}]: ${d.message}`,
      }));
      view.dispatch(setDiagnostics(view.state, lint));
    },
  };
}
