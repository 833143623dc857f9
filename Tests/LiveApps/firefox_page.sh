#!/bin/sh
# Debian's Firefox ESR on the test desktop, showing Tests/LiveApps/browser.html (or the page
# FIREFOX_PAGE names there), with a fresh profile in the desktop's folder: no first-run pages,
# default-browser check, telemetry, updates, crash reporter or session restore. Firefox exposes
# its tree on the accessibility bus when told (GNOME_ACCESSIBILITY=1; a desktop session's screen
# reader setting otherwise).
here=$(cd "$(dirname "$0")" && pwd)
profile="$APP_FOLDER/firefox-profile"
mkdir -p "$profile"
cat > "$profile/user.js" <<'PREFS'
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.aboutwelcome.enabled", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("startup.homepage_welcome_url", "");
user_pref("startup.homepage_welcome_url.additional", "");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.policy.firstRunURL", "");
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.enabled", false);
user_pref("browser.sessionstore.resume_from_crash", false);
user_pref("browser.tabs.warnOnClose", false);
user_pref("browser.newtabpage.enabled", false);
user_pref("extensions.autoDisableScopes", 15);
user_pref("accessibility.force_disabled", 0);
PREFS
GNOME_ACCESSIBILITY=1 MOZ_CRASHREPORTER_DISABLE=1 MOZ_DISABLE_AUTO_SAFE_MODE=1 MOZ_ENABLE_WAYLAND=0 \
HOME="$APP_FOLDER" XDG_CONFIG_HOME="$APP_FOLDER/config" exec /usr/bin/firefox-esr --no-remote --new-instance \
    --profile "$profile" --width 800 --height 600 "file://$here/${FIREFOX_PAGE:-browser.html}"
