// Screens are addressed by the URL fragment, so the browser's Back button and reloads work:
//   #/chats  #/contacts  #/discover  #/me  #/chat/<room id>  #/chat/<room id>/<seq to show>
//   #/me/<page>: Me's own pages (mePages.js), such as #/me/data and #/me/admin/users/<user id>
// and, signed in or not, the links an administrator hands out (PROTOCOL.md §10.2, §10.4):
//   #/invite/<code>  registration with an invitation      #/reset/<code>  a new password

export const TABS = ['chats', 'contacts', 'discover', 'me'];

function fragmentParts() {
  return location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
}

export function currentRoute() {
  const parts = fragmentParts();
  if (parts[0] === 'chat' && parts[1]) {
    const seq = Number(parts[2]);
    return { tab: 'chats', roomID: parts[1], focusSeq: Number.isInteger(seq) && seq > 0 ? seq : null, page: '' };
  }
  const tab = TABS.includes(parts[0]) ? parts[0] : 'chats';
  return { tab, roomID: null, focusSeq: null, page: tab === 'me' ? parts.slice(1).join('/') : '' };
}

/** The invitation or reset link the address holds: {invite: code}, {reset: code}, or null. */
export function linkRoute() {
  const [link, code] = fragmentParts();
  return (link === 'invite' || link === 'reset') && code ? { [link]: code } : null;
}

export function navigate(path) {
  const hash = `#/${path}`;
  if (location.hash !== hash) location.hash = hash;
}

export function chatPath(roomID, focusSeq = null) {
  return `chat/${encodeURIComponent(roomID)}${focusSeq ? `/${focusSeq}` : ''}`;
}

/** The address of an account's page in Administration. */
export function adminUserPath(userID) {
  return `me/admin/users/${encodeURIComponent(userID)}`;
}
