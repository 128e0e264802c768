/** What a live example is: a module whose `run` prints lines and returns what it computed. */
export type Print = (line: string) => void;

export interface LiveModule {
  /** `area` is an empty element under the output, for canvases and the like. */
  run(print: Print, area: HTMLElement): Promise<unknown>;
}

/** A captioned canvas added to a live run's area, shown `zoom` times its size. */
export function addCanvas(
  area: HTMLElement,
  caption: string,
  width: number,
  height: number,
  zoom = 1,
): CanvasRenderingContext2D {
  const figure = document.createElement('figure');
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.style.width = `${width * zoom}px`;
  canvas.dataset.caption = caption;
  const label = document.createElement('figcaption');
  label.textContent = caption;
  figure.append(canvas, label);
  area.append(figure);
  return canvas.getContext('2d')!;
}
