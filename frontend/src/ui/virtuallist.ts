// A virtualised list: beyond a few hundred rows only the rows in sight (and a few around) are
// in the DOM; margins above and below stand for the rest, so a 40k-node run lists as cheaply as
// a 40-node one. A short list is built whole (the page's find and screen readers see it all).

/** Lists up to this long are built whole. */
const WHOLE = 300;

export class VirtualList {
  readonly el: HTMLElement;
  private n = 0;
  private height = 0;
  private build: (i: number) => HTMLElement = () => document.createElement("li");
  private painted = "";
  private paintedTop = -1;

  constructor(el: HTMLElement, readonly rowH: number) {
    this.el = el;
    this.height = el.clientHeight;
    new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      if (r) this.height = r.height;
      this.paint(true);
    }).observe(el);
    el.addEventListener("scroll", () => {
      // a scroll this list made itself (reveal) is already painted
      if (el.scrollTop !== this.paintedTop) this.paint(true);
    });
  }

  /** Show `n` rows built by `build`; `key` names their content (a new key rebuilds them). */
  set(n: number, key: string, build: (i: number) => HTMLElement): void {
    this.build = build;
    if (n === this.n && key === this.painted) return;
    this.n = n;
    this.painted = key;
    this.paint(true);
  }

  get length(): number {
    return this.n;
  }

  private paint(force: boolean): void {
    if (!force) return;
    const top = this.el.scrollTop;
    this.paintedTop = top;
    const whole = this.n <= WHOLE;
    const first = whole ? 0 : Math.max(0, Math.floor(top / this.rowH) - 4);
    const last = whole ? this.n : Math.min(this.n, Math.ceil((top + Math.max(this.height, 200)) / this.rowH) + 4);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) rows.push(this.build(i));
    // margins of the first and last rows stand for the rows not built (a scroll container's
    // own padding would not shrink with it)
    if (rows.length) {
      (rows[0] as HTMLElement).style.marginTop = `${first * this.rowH}px`;
      (rows[rows.length - 1] as HTMLElement).style.marginBottom = `${(this.n - last) * this.rowH}px`;
    }
    this.el.replaceChildren(...rows);
  }

  /** Scroll so row `i` is in sight (nothing when it already is). */
  reveal(i: number): void {
    const top = this.el.scrollTop, y = i * this.rowH;
    if (y >= top && y + this.rowH <= top + this.height) return;
    this.el.scrollTop = Math.max(0, y - this.height / 2);
    this.paint(true);
  }
}
