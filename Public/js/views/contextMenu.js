// The ways into an item's menu besides its button: a right-click (or a long press where the browser turns it into a
// context menu, as Chrome on Android does), and a long press on a touch screen that sends no context menu event for
// it (Safari on iOS). The keyboard's context-menu key is RovingList's.

const LONG_PRESS_MS = 500;
const MOVE_TOLERANCE_PX = 10; // a finger that moves further is scrolling, not pressing
const SAME_PRESS_MS = 800; // a context menu event this soon after a long press is the same gesture

/**
 * Calls `onMenu(item, at)` for an item (`selector`, inside `container`) right-clicked (`at`: where, {x, y}) or pressed
 * long (`at` null: a menu under a finger would hide what it is for, so it goes beside the item). Links keep the browser's own menu on a right-click (to copy or open the address); parts of an item
 * that handle a long press themselves (`ownPress`: a reaction says who reacted) keep it.
 */
export function openMenusOn(container, selector, onMenu, { ownPress = null } = {}) {
  let press = null; // {item, x, y, timer}
  let lastLongPressAt = 0;

  const cancel = () => {
    if (press) clearTimeout(press.timer);
    press = null;
  };
  container.addEventListener('touchstart', (event) => {
    cancel();
    const item = event.target.closest(selector);
    if (!item || event.touches.length !== 1 || (ownPress && event.target.closest(ownPress))) return;
    const { clientX: x, clientY: y } = event.touches[0];
    press = {
      item, x, y,
      timer: setTimeout(() => {
        press.fired = true;
        lastLongPressAt = Date.now();
        onMenu(item, null);
      }, LONG_PRESS_MS),
    };
  }, { passive: true });
  container.addEventListener('touchmove', (event) => {
    const touch = event.touches[0];
    if (press && !press.fired && Math.hypot(touch.clientX - press.x, touch.clientY - press.y) > MOVE_TOLERANCE_PX) cancel();
  }, { passive: true });
  container.addEventListener('touchend', (event) => {
    // The finger lifting after a long press is no tap: nothing under it (a quote, an image) may act on it.
    if (press?.fired) event.preventDefault();
    cancel();
  });
  container.addEventListener('touchcancel', cancel);
  container.addEventListener('contextmenu', (event) => {
    const item = event.target.closest(selector);
    if (!item || event.defaultPrevented) return;
    if (event.target.closest('a[href]') && Date.now() - lastLongPressAt > SAME_PRESS_MS) return;
    event.preventDefault();
    if (Date.now() - lastLongPressAt <= SAME_PRESS_MS) return;
    onMenu(item, { x: event.clientX, y: event.clientY });
  });
}
