// Files dragged over an element: it shows that it takes them (the `dragging` class) and hands the dropped ones on.

/** Makes `element` accept dropped files; `onFiles(files)` gets them. */
export function acceptDroppedFiles(element, onFiles) {
  let depth = 0; // dragenter/dragleave fire for every child crossed
  const carriesFiles = (event) => event.dataTransfer?.types.includes('Files');
  element.addEventListener('dragenter', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth += 1;
    element.classList.add('dragging');
  });
  element.addEventListener('dragover', (event) => {
    if (carriesFiles(event)) event.preventDefault();
  });
  element.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) element.classList.remove('dragging');
  });
  element.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    element.classList.remove('dragging');
    onFiles(event.dataTransfer?.files ?? []);
  });
}
