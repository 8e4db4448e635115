// The signed-in app: the tab bar, the list side (one of four tabs) and the chat side. On a phone only one side shows
// at a time, with the tab bar at the bottom; on a wide screen the tab bar is a rail on the left, the list and the chat
// sit side by side, and Me and Discover, which have no chat beside them, take the whole width (see css/app.css).
// Me has pages of its own (mePages.js): the top bar shows the page's title and a Back button to the page above.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { currentRoute, navigate, TABS } from '../router.js';
import { ChatListView } from './chatList.js';
import { ContactsView } from './contacts.js';
import { DiscoverView } from './discover.js';
import { mePage } from './mePages.js';
import { ChatView } from './chat.js';
import { ImageViewer } from './imageViewer.js';
import { connectionLight } from './connectionLight.js';
import { ConnectionBanner } from './connectionBanner.js';
import { NewChatMenu } from './newChatMenu.js';
import { QuickSwitcher } from './quickSwitcher.js';

const TAB_VIEWS = {
  chats: (client) => new ChatListView(client),
  // Add contact opens the ⊕ menu's people picker: one dialog, so its ids stay unique.
  contacts: (client, route, shell) => new ContactsView(client, shell.newChatMenu.picker),
  discover: (client) => new DiscoverView(client),
  me: (client, route) => mePage(client, route.page),
};
const TAB_ICONS = { chats: ICONS.chats, contacts: ICONS.contacts, discover: ICONS.discover, me: ICONS.me };
const TAB_TITLES = { chats: 'tabChats', contacts: 'tabContacts', discover: 'tabDiscover', me: 'tabMe' };
// Tabs that are a page of their own rather than a list of things to open beside it.
const WIDE_TABS = ['discover', 'me'];

export class Shell {
  /** `focusList`: put the keyboard focus on the chat list once it shows (right after signing in). */
  constructor(root, client, { focusList = false } = {}) {
    this.root = root;
    this.focusListOnce = focusList;
    this.client = client;
    this.store = client.store;
    this.tabView = null;
    this.chatView = null;
    this.route = null;
    this.unsubscribers = [
      this.store.on('rooms', () => this.updateUnreadBadge()),
      this.store.on('settings', () => this.updateUnreadBadge()),
      this.store.on('language', () => this.build()),
    ];
    this.handleHashChange = () => this.showRoute(currentRoute());
    window.addEventListener('hashchange', this.handleHashChange);
    this.handleShortcut = (event) => {
      if (!QuickSwitcher.isShortcut(event)) return;
      event.preventDefault();
      this.quickSwitcher.open();
    };
    window.addEventListener('keydown', this.handleShortcut);
    this.build();
  }

  /** Builds the whole screen (again, after a language change). */
  build() {
    this.tabView?.destroy();
    this.chatView?.destroy();
    this.banner?.destroy();
    this.tabView = null;
    this.chatView = null;
    this.route = null;
    this.imageViewer = new ImageViewer();
    this.quickSwitcher = new QuickSwitcher(this.store);
    this.banner = new ConnectionBanner(this.client);
    // A link (to the element it skips to), as assistive technology expects; the app handles the click, because the
    // address's fragment is the app's route.
    this.skipLink = el('a', {
      className: 'skip-link',
      id: 'skip-link',
      href: '#chat-list',
      on: { click: (event) => { event.preventDefault(); this.skip(); } },
    });

    this.title = el('h1', { className: 'topbar-title', id: 'topbar-title' });
    this.backButton = el('button', {
      type: 'button', className: 'icon-button topbar-back', id: 'topbar-back', 'aria-label': t('back'), hidden: true,
      on: { click: () => navigate(this.tabView.backPath) },
    }, icon(ICONS.back));
    this.newChatMenu = new NewChatMenu(this.client);
    this.tabPanel = el('div', { className: 'tab-panel', id: 'tab-panel', role: 'tabpanel', tabindex: '-1' });
    this.tabPanel.addEventListener('keydown', (event) => this.listKeyDown(event));
    this.tabButtons = Object.fromEntries(TABS.map((tab) => [tab, this.tabButton(tab)]));
    this.chatPane = el('main', { className: 'chat-pane', id: 'chat-pane' });
    // The connection light belongs to the app's own bar (not to a chat, where it would read as the other person's).
    this.shell = el('div', { className: 'shell' },
      el('section', { className: 'sidebar', 'aria-labelledby': 'topbar-title' },
        el('header', { className: 'topbar' }, this.backButton, connectionLight(this.store), this.title, this.newChatMenu.element),
        this.tabPanel,
        this.newChatMenu.picker.element), // outside the ⊕ menu, which only the Chats tab shows: Contacts opens it too
      el('nav', { className: 'tabbar', 'aria-label': t('appName') },
        el('div', {
          className: 'tabs',
          role: 'tablist',
          'aria-label': t('appName'),
          on: { keydown: (event) => this.tabKeyDown(event) },
        }, Object.values(this.tabButtons))),
      this.chatPane,
      this.quickSwitcher.element);
    replaceChildren(this.root, this.skipLink, this.banner.element, this.shell);
    this.showRoute(currentRoute());
    this.updateUnreadBadge();
  }

  tabButton(tab) {
    return el('button', {
      type: 'button',
      className: 'tab',
      role: 'tab',
      id: `tab-${tab}`,
      dataset: { tab },
      'aria-controls': 'tab-panel',
      on: { click: () => navigate(tab) },
    }, icon(TAB_ICONS[tab]), el('span', { className: 'tab-label', text: t(TAB_TITLES[tab]) }));
  }

  showRoute(route) {
    const previous = this.route;
    this.route = route;
    if (previous?.tab !== route.tab || previous?.page !== route.page) {
      this.tabView?.destroy();
      this.tabView = TAB_VIEWS[route.tab](this.client, route, this);
      replaceChildren(this.tabPanel, this.tabView.element);
      this.title.textContent = this.tabView.title ?? t(TAB_TITLES[route.tab]);
      this.backButton.hidden = !this.tabView.backPath;
      // Moving between a tab's pages (Me → Administration → Users) takes the focus along: Tab goes on in the new page.
      if (previous?.tab === route.tab) this.tabPanel.focus({ preventScroll: true });
      this.newChatMenu.element.hidden = route.tab !== 'chats';
      for (const [tab, button] of Object.entries(this.tabButtons)) {
        button.setAttribute('aria-selected', String(tab === route.tab));
        button.tabIndex = tab === route.tab ? 0 : -1;
      }
      this.tabPanel.setAttribute('aria-labelledby', `tab-${route.tab}`);
    }
    if (previous?.roomID !== route.roomID || previous?.focusSeq !== route.focusSeq) {
      this.chatView?.destroy();
      this.chatView = null;
      if (route.roomID && this.store.rooms.has(route.roomID)) {
        this.chatView = new ChatView(this.client, route.roomID, { imageViewer: this.imageViewer, focusSeq: route.focusSeq });
        // The image viewer opens from a chat, so it sits in the chat's landmark (axe: no content outside one).
        replaceChildren(this.chatPane, this.chatView.element, this.imageViewer.element);
        this.shell.classList.add('showing-chat'); // on a phone the pane shows only now, and mounting needs its size
        this.chatView.mounted();
      } else {
        this.client.setActiveRoom(null);
        replaceChildren(this.chatPane, el('p', { className: 'chat-placeholder', text: t('selectChat') }));
        if (route.roomID) this.waitForRoom(route.roomID);
      }
    }
    this.tabView.setSelectedRoom?.(route.roomID);
    this.shell.classList.toggle('showing-chat', Boolean(this.chatView));
    this.shell.classList.toggle('wide-tab', WIDE_TABS.includes(route.tab) && !this.chatView);
    this.skipLink.textContent = this.chatView ? t('skipToComposer') : route.tab === 'chats' ? t('skipToList') : t('skipToContent');
    this.skipLink.setAttribute('href', this.chatView ? '#composer-input' : '#tab-panel');
    if (this.focusListOnce && route.tab === 'chats' && !this.chatView) {
      this.focusListOnce = false;
      this.focusChatList();
    }
  }

  /** The first chat of the list (or the list itself when it is empty) gets the keyboard focus. */
  focusChatList() {
    const target = this.tabPanel.querySelector('.chat-item') ?? this.tabPanel.querySelector('#chat-list');
    target?.focus();
  }

  /** The skip link: straight to the message box when a chat is open, otherwise to the list or the tab's page. */
  skip() {
    const composer = this.chatPane.querySelector('#composer-input');
    if (composer && this.chatView) composer.focus();
    else if (this.route?.tab === 'chats') this.focusChatList();
    else this.tabPanel.querySelector('input, select, button, a[href]')?.focus();
  }

  /** ARIA tabs: ←/→ (and Home/End) move to the neighbouring tab and show it. */
  tabKeyDown(event) {
    const index = TABS.indexOf(event.target.dataset?.tab);
    if (index < 0) return;
    const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const tab = TABS[(moves[event.key] + TABS.length) % TABS.length];
    navigate(tab);
    this.tabButtons[tab].focus();
  }

  /** ↑/↓ move between the entries of the list a tab shows (chats, contacts). */
  listKeyDown(event) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const entries = [...this.tabPanel.querySelectorAll('.chat-item, .contact-item')];
    const index = entries.indexOf(event.target);
    if (index < 0) return;
    event.preventDefault();
    entries[Math.min(entries.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))].focus();
  }

  /** A link to a room that is not loaded yet (a reload before the room list came): show it once it arrives. */
  waitForRoom(roomID) {
    const unsubscribe = this.store.on('rooms', () => {
      if (!this.store.rooms.has(roomID)) return;
      unsubscribe();
      if (this.route?.roomID === roomID && !this.chatView) {
        this.route = { ...this.route, roomID: null };
        this.showRoute(currentRoute());
      }
    });
  }

  updateUnreadBadge() {
    const total = this.client.notifier.unreadCount();
    document.title = total > 0 ? `(${total}) ${t('appName')}` : t('appName');
    this.client.notifier.updateBadge(total);
    const button = this.tabButtons.chats;
    button.querySelector('.badge')?.remove();
    if (total > 0) {
      button.append(el('span', { className: 'badge tab-badge', text: total > 99 ? '99+' : String(total), 'aria-label': t('unreadCount', { count: total }) }));
    }
    // An open chat that is no longer ours (left on another device) closes.
    if (this.chatView && !this.store.rooms.has(this.chatView.roomID)) navigate('chats');
  }

  destroy() {
    window.removeEventListener('hashchange', this.handleHashChange);
    window.removeEventListener('keydown', this.handleShortcut);
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    this.tabView?.destroy();
    this.chatView?.destroy();
    this.banner?.destroy();
    this.client.notifier.updateBadge(0);
  }
}
