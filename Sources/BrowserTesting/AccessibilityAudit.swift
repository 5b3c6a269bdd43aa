/// Checks the page open in the browser for what keeps people who use a keyboard, a screen reader or poor eyesight
/// out, as WCAG 2.1 AA words it: every form control and button has an accessible name, images a text alternative,
/// the page a language, ids are unique, and text contrasts with its background (4.5:1, large text 3:1).
///
/// Only what can be judged from the DOM and computed styles; a person with a screen reader still judges the rest.
public enum AccessibilityAudit {
    /// The problems on the page now, each naming the element (tag, id, classes) and the rule; empty when none.
    public static func problems(in driver: WebDriver) async throws -> [String] {
        try await driver.run(script) as? [String] ?? ["the audit script returned nothing"]
    }

    static let script = """
        const problems = [];
        const describe = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
          + [...e.classList].map((c) => '.' + c).join('');
        const visible = (e) => {
          const r = e.getBoundingClientRect();
          const s = getComputedStyle(e);
          return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
        };
        const text = (e) => (e.textContent ?? '').replace(/\\s+/g, ' ').trim();
        const labelled = (e) => {
          if (e.getAttribute('aria-label')?.trim()) return true;
          const by = e.getAttribute('aria-labelledby');
          if (by && by.split(/\\s+/).some((id) => text(document.getElementById(id) ?? document.createElement('i')))) {
            return true;
          }
          if (e.labels && [...e.labels].some((l) => text(l))) return true;
          if (e.title?.trim()) return true;
          return false;
        };
        if (!document.documentElement.lang) problems.push('html: no lang attribute');
        const ids = new Map();
        for (const e of document.querySelectorAll('[id]')) ids.set(e.id, (ids.get(e.id) ?? 0) + 1);
        for (const [id, count] of ids) if (count > 1) problems.push(`#${id}: id used ${count} times`);
        for (const e of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
          if (visible(e) && !labelled(e)) problems.push(`${describe(e)}: form control without a label`);
        }
        for (const e of document.querySelectorAll('button, a[href], summary, [role=button]')) {
          if (visible(e) && !text(e) && !labelled(e) && !e.querySelector('img[alt]:not([alt=""])')) {
            problems.push(`${describe(e)}: no accessible name`);
          }
        }
        for (const e of document.querySelectorAll('img')) {
          if (!e.hasAttribute('alt')) problems.push(`${describe(e)}: image without alt`);
        }
        // Contrast: text nodes' colour against the first opaque background behind them.
        const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        const parse = (c) => (c.match(/[\\d.]+/g) ?? []).map(Number);
        const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
        const background = (e) => {
          for (let n = e; n; n = n.parentElement) {
            const s = getComputedStyle(n);
            if (s.backgroundImage !== 'none') return null;
            const [r, g, b, a = 1] = parse(s.backgroundColor);
            if (a >= 0.99) return [r, g, b];
            if (a > 0) return null;
          }
          return [255, 255, 255];
        };
        const seen = new Set();
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const e = node.parentElement;
          if (!e || seen.has(e) || !node.textContent.trim() || !visible(e)) continue;
          if (e.closest('.leaflet-container, [aria-hidden=true]')) continue;
          seen.add(e);
          const s = getComputedStyle(e);
          const [r, g, b, a = 1] = parse(s.color);
          const behind = background(e);
          if (!behind || a < 0.99) continue;
          const [l1, l2] = [luminance([r, g, b]), luminance(behind)].sort((x, y) => y - x);
          const ratio = (l1 + 0.05) / (l2 + 0.05);
          const size = parseFloat(s.fontSize);
          const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
          const needed = large ? 3 : 4.5;
          const inactive = e.closest('button:disabled, input:disabled, select:disabled, [aria-disabled=true]');
          if (ratio < needed && !inactive) {
            problems.push(`${describe(e)} "${text(e).slice(0, 30)}": contrast ${ratio.toFixed(2)}:1, needs ${needed}:1`);
          }
        }
        return problems;
        """
}
