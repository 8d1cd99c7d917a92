// The CodeMirror 6 editor: Python, a breakpoint gutter, highlighted lines for the selection
// and the error, Ctrl/Cmd+Enter to run.
import { EditorState, RangeSet, StateEffect, StateField, Transaction, type Extension } from "@codemirror/state";
import { Decoration, EditorView, GutterMarker, gutter, keymap, lineNumbers, highlightActiveLine, type DecorationSet } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, indentOnInput, syntaxHighlighting, HighlightStyle } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";

const setBreaks = StateEffect.define<number[]>();
const setMarks = StateEffect.define<{ selected: number[]; error: number | null }>();

class BreakMarker extends GutterMarker {
  override toDOM(): Node {
    const el = document.createElement("span");
    el.className = "cm-bp";
    el.textContent = "●";
    return el;
  }
}
const breakMarker = new BreakMarker();

class SpacerMarker extends GutterMarker {
  override toDOM(): Node {
    const el = document.createElement("span");
    el.textContent = "●";
    return el;
  }
}

const breakField = StateField.define<number[]>({
  create: () => [],
  update(v, tr) {
    for (const e of tr.effects) if (e.is(setBreaks)) return e.value;
    return v;
  },
});

const markField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const doc = tr.state.doc;
      const ranges = [];
      const lines = new Set(e.value.selected);
      if (e.value.error !== null) lines.delete(e.value.error);
      const all: [number, string][] = [...lines].map((l) => [l, "cm-line-selected"]);
      if (e.value.error !== null) all.push([e.value.error, "cm-line-error"]);
      all.sort((a, b) => a[0] - b[0]);
      for (const [l, cls] of all) {
        if (l >= 1 && l <= doc.lines) ranges.push(Decoration.line({ class: cls }).range(doc.line(l).from));
      }
      return Decoration.set(ranges);
    }
    return deco.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

const highlight = HighlightStyle.define([
  { tag: t.keyword, color: "#c792ea" },
  { tag: [t.string, t.special(t.string)], color: "#c3e88d" },
  { tag: t.number, color: "#f78c6c" },
  { tag: t.comment, color: "#5f6b80", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "#82aaff" },
  { tag: t.definition(t.variableName), color: "#ffcb6b" },
  { tag: [t.bool, t.null], color: "#ff9cac" },
  { tag: t.operator, color: "#89ddff" },
  { tag: t.className, color: "#ffcb6b" },
  { tag: t.propertyName, color: "#b2ccd6" },
]);

export interface EditorHooks {
  onRun: () => void;
  onToggleBreak: (line: number) => void;
  onLineClick: (line: number) => void;
}

export class CodeEditor {
  readonly view: EditorView;
  /** True once the user has touched the text or selection (typed, deleted, pasted, selected):
   *  what arrives later (the first example) no longer goes into the editor. */
  touched = false;

  constructor(parent: HTMLElement, hooks: EditorHooks) {
    const bpGutter = gutter({
      class: "cm-bp-gutter",
      markers: (v) => {
        const lines = v.state.field(breakField);
        const marks = lines.filter((l) => l <= v.state.doc.lines).map((l) => breakMarker.range(v.state.doc.line(l).from));
        return RangeSet.of(marks, true);
      },
      initialSpacer: () => new SpacerMarker(),
      domEventHandlers: {
        mousedown(v, block) {
          hooks.onToggleBreak(v.state.doc.lineAt(block.from).number);
          return true;
        },
      },
    });
    const extensions: Extension[] = [
      breakField, markField, bpGutter,
      lineNumbers({ domEventHandlers: { mousedown: (v, block) => (hooks.onToggleBreak(v.state.doc.lineAt(block.from).number), true) } }),
      history(), highlightActiveLine(),
      indentOnInput(), bracketMatching(), python(), syntaxHighlighting(highlight),
      keymap.of([
        { key: "Mod-Enter", run: () => (hooks.onRun(), true) },
        indentWithTab, ...defaultKeymap, ...historyKeymap,
      ]),
      EditorView.domEventHandlers({
        click(ev, v) {
          const pos = v.posAtCoords({ x: ev.clientX, y: ev.clientY });
          if (pos !== null && ev.altKey === false) hooks.onLineClick(v.state.doc.lineAt(pos).number);
          return false;
        },
      }),
      EditorView.updateListener.of((u) => {
        if (u.transactions.some((tr) => tr.annotation(Transaction.userEvent) !== undefined)) this.touched = true;
      }),
      // the code panel is narrow: wrap long lines rather than hide their ends (error lines too)
      EditorView.lineWrapping,
      EditorView.theme({}, { dark: true }),
    ];
    this.view = new EditorView({ parent, state: EditorState.create({ doc: "", extensions }) });
  }

  get code(): string {
    return this.view.state.doc.toString();
  }

  set code(text: string) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
  }

  setBreakpoints(lines: number[]): void {
    this.view.dispatch({ effects: setBreaks.of(lines) });
  }

  mark(selected: number[], error: number | null): void {
    this.view.dispatch({ effects: setMarks.of({ selected, error }) });
    const first = error ?? selected[0];
    if (first !== undefined && first >= 1 && first <= this.view.state.doc.lines) {
      this.view.dispatch({ effects: EditorView.scrollIntoView(this.view.state.doc.line(first).from, { y: "nearest" }) });
    }
  }
}
