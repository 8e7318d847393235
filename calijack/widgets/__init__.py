"""ipywidgets views over the engine: thin, every decision made by the layers above."""
