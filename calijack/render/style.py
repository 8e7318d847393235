"""The one stylesheet of the render fragments, scoped by the ``cj-`` class prefix."""

from __future__ import annotations

from .base import Html, esc

__all__ = ["CSS", "fragment"]

CSS = """
.cj-root{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;
 font-size:14px;line-height:1.35;max-width:700px;box-sizing:border-box;text-align:left}
.cj-root *{box-sizing:border-box}
.cj-hand{display:flex;flex-wrap:wrap;align-items:flex-end;gap:6px;padding:10px 0 2px;
 margin:0;list-style:none}
.cj-hand>li{margin:0;padding:0;list-style:none;display:block}
.cj-card{filter:drop-shadow(0 1px 2px rgba(0,0,0,.35));transition:transform .12s}
svg.cj-legal{transform:translateY(-8px)}
.cj-label{font-weight:600;margin:2px 0}
.cj-table{color:#f3efe2;border-radius:22px;padding:12px 16px 14px;border:8px solid #5a3a1f;
 background:#1e5d3a;background:radial-gradient(ellipse at 50% 45%,#2f8052 0%,#22663f 55%,#17492d 100%);
 box-shadow:inset 0 0 24px rgba(0,0,0,.45),0 2px 6px rgba(0,0,0,.3)}
.cj-bar{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;justify-content:space-between;
 padding-bottom:8px;border-bottom:1px solid rgba(255,255,255,.18)}
.cj-chip{display:inline-flex;align-items:center;gap:5px;background:rgba(0,0,0,.28);
 border-radius:999px;padding:3px 10px;white-space:nowrap}
.cj-trump{background:#fffef6;color:#222;font-weight:600}
.cj-seat{padding:8px 0 4px}
.cj-seat-head{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center;font-size:13px}
.cj-seat-head strong{font-size:15px}
.cj-dealer{display:inline-block;width:20px;height:20px;border-radius:50%;background:#f2d36b;
 color:#3a2a00;font-weight:700;font-size:12px;text-align:center;line-height:20px}
.cj-turn{background:#f2c230;color:#2b2100;border-radius:4px;padding:1px 7px;font-weight:700}
.cj-opps{display:flex;flex-wrap:wrap;gap:4px 28px}
.cj-middle{display:grid;grid-template-columns:minmax(120px,auto) 1fr;gap:10px 24px;align-items:start;padding:10px 0;
 margin:4px 0;border-top:1px dashed rgba(255,255,255,.16);border-bottom:1px dashed rgba(255,255,255,.16)}
.cj-box-title{font-size:12px;text-transform:uppercase;letter-spacing:.06em;opacity:.85;margin-bottom:4px}
.cj-stack .cj-card{filter:drop-shadow(2px 2px 0 #d9d5c7) drop-shadow(2px 2px 0 #7b786e)
 drop-shadow(2px 2px 0 #d9d5c7) drop-shadow(1px 2px 2px rgba(0,0,0,.5))}
.cj-trick-area{justify-self:center;min-width:150px}
.cj-trick-area .cj-box-title{text-align:center}
.cj-count{font-size:13px;margin-top:6px}
.cj-trick{display:flex;justify-content:center;gap:10px;margin:0;padding:0;list-style:none}
.cj-trick>li{display:flex;flex-direction:column;align-items:center;gap:3px;font-size:12px;list-style:none;margin:0}
.cj-slot{width:64px;height:90px;border:2px dashed rgba(255,255,255,.35);border-radius:6px}
.cj-win{color:#f2d36b;font-weight:700}
.cj-piles{display:flex;flex-wrap:wrap;gap:8px 18px;padding-top:8px;border-top:1px solid rgba(255,255,255,.18)}
.cj-pile{flex:1 1 200px;min-width:0}
.cj-fan{display:flex;flex-wrap:wrap;row-gap:4px;padding:2px 24px 0 0;margin:0;list-style:none}
.cj-fan>li{margin:0 -24px 0 0;list-style:none}
.cj-fan .cj-card{filter:drop-shadow(-1px 0 1px rgba(0,0,0,.35))}
.cj-values{font-variant-numeric:tabular-nums}
.cj-hidden svg{outline:2px dashed #f2d36b;outline-offset:2px;border-radius:6px}
.cj-legend{font-size:12px;opacity:.9;margin-top:6px}
.cj-legend{display:flex;flex-wrap:wrap;gap:2px 14px}
.cj-legend span{white-space:nowrap}
.cj-note{margin-top:8px;padding:6px 10px;border-radius:8px;background:rgba(0,0,0,.3);font-size:14px}
.cj-muted{opacity:.75}
.cj-sheet{color:#1d1d1f;background:#fffdf6;border:1px solid #cfc7b0;border-radius:12px;padding:12px 16px}
.cj-sheet table{border-collapse:collapse;width:100%;margin:4px 0 10px}
.cj-sheet caption{text-align:left;font-weight:700;font-size:15px;padding:2px 0 6px;color:#1d1d1f}
.cj-sheet th,.cj-sheet td{border-bottom:1px solid #e4dcc5;padding:4px 8px;text-align:left;vertical-align:middle;color:#1d1d1f}
.cj-sheet thead th{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:#6b6250;border-bottom:2px solid #cfc7b0}
.cj-sheet tfoot th,.cj-sheet tfoot td{border-bottom:0;border-top:2px solid #cfc7b0;font-weight:700}
.cj-mp{display:inline-block;min-width:24px;padding:1px 8px;border-radius:999px;background:#1f5e3a;color:#fff;font-weight:700;text-align:center}
.cj-cv{display:inline-block;padding:1px 8px;border-radius:4px;background:#f1e3b5;color:#4a3700;font-weight:700}
.cj-nobody{color:#7a715e;font-style:italic}
.cj-kind{font-size:12px;color:#6b6250;margin:-2px 0 6px}
.cj-sheet .cj-num{text-align:right;font-variant-numeric:tabular-nums}
.cj-sheet .cj-total{font-size:16px;padding:2px 10px}
"""


def fragment(inner: str, classes: str, label: str | None = None) -> Html:
    """``inner`` wrapped in a ``cj-root`` div with the one scoped ``<style>`` block."""
    aria = f' role="group" aria-label="{esc(label)}"' if label else ""
    return Html(f'<div class="cj-root {classes}"{aria}><style>{CSS}</style>{inner}</div>')
