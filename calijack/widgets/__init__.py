"""ipywidgets views over the engine: thin, every decision made by the layers above."""

from calijack.extras import require

require("widgets", __name__)
