//! The interface's words in English, Polish and Hungarian, and the names of the pieces.
//!
//! Strings are looked up by a short key ([`tr`]); a key missing from the table shows as
//! itself, so a forgotten translation is visible but never fatal. Card and city names come
//! from the catalogue (`Card::names`, `City::names`).

use serde::{Deserialize, Serialize};
use tablelens_engine::{Catalogue, CityId};

/// An interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    En,
    /// Polish.
    Pl,
    /// Hungarian.
    Hu,
}

impl Lang {
    /// Every language, in menu order.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Pl, Lang::Hu];

    /// The code used by the catalogue's names (`en`, `pl`, `hu`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pl => "pl",
            Lang::Hu => "hu",
        }
    }

    /// The language's own name.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Pl => "Polski",
            Lang::Hu => "Magyar",
        }
    }

    /// The language of a locale tag such as `pl-PL` or `hu_HU.UTF-8`; English otherwise.
    pub fn from_locale(tag: &str) -> Lang {
        let t = tag.to_ascii_lowercase();
        if t.starts_with("pl") {
            Lang::Pl
        } else if t.starts_with("hu") {
            Lang::Hu
        } else {
            Lang::En
        }
    }

    /// The system's language, when it is one of ours.
    pub fn system() -> Lang {
        sys_locale::get_locale()
            .map(|l| Lang::from_locale(&l))
            .unwrap_or(Lang::En)
    }
}

/// `(key, English, Polish, Hungarian)`.
const TABLE: &[(&str, &str, &str, &str)] = &[
    ("app_title", "tablelens — The Convoy", "tablelens — Konwój", "tablelens — A Konvoj"),
    ("source", "Source", "Źródło", "Forrás"),
    ("demo", "Demo table", "Stół demonstracyjny", "Bemutató asztal"),
    ("camera", "Camera", "Kamera", "Kamera"),
    ("photo", "Photo", "Zdjęcie", "Fénykép"),
    ("folder", "Folder of frames", "Folder klatek", "Képkocka-mappa"),
    ("open", "Open", "Otwórz", "Megnyitás"),
    ("path", "Path", "Ścieżka", "Útvonal"),
    ("resolution", "Resolution", "Rozdzielczość", "Felbontás"),
    ("refresh", "Refresh", "Odśwież", "Frissítés"),
    ("no_cameras", "No camera found", "Nie znaleziono kamery", "Nincs kamera"),
    ("camera_lost", "Camera unavailable — retrying", "Kamera niedostępna — ponawiam", "A kamera nem elérhető — újrapróbálás"),
    ("waiting", "Waiting for the first frame…", "Czekam na pierwszą klatkę…", "Várakozás az első képkockára…"),
    ("loading_vision", "Loading the vision models…", "Wczytuję modele wizji…", "A látásmodellek betöltése…"),
    ("settings", "Settings", "Ustawienia", "Beállítások"),
    ("language", "Language", "Język", "Nyelv"),
    ("system_language", "System language", "Język systemu", "Rendszer nyelve"),
    ("view", "View", "Widok", "Nézet"),
    ("show_labels", "Show labels", "Pokaż etykiety", "Címkék mutatása"),
    ("show_outlines", "Show outlines", "Pokaż obrysy", "Körvonalak mutatása"),
    ("show_truth", "Show truth (demo)", "Pokaż prawdę (demo)", "Valóság mutatása (bemutató)"),
    ("demo_truth", "Demo: read the true table (skip the vision)", "Demo: czytaj prawdziwy stół (bez wizji)", "Bemutató: a valódi asztal olvasása (látás nélkül)"),
    ("demo_truth_note", "demo read from its true table, not by the vision", "demo czytane z prawdziwego stołu, nie przez wizję", "a bemutató a valódi asztalból olvasva, nem a látással"),
    ("pause", "Pause", "Pauza", "Szünet"),
    ("resume", "Resume", "Wznów", "Folytatás"),
    ("next", "Next", "Dalej", "Következő"),
    ("previous", "Previous", "Wstecz", "Előző"),
    ("step", "Step", "Krok", "Lépés"),
    ("screenshot", "Save screenshot", "Zapisz zrzut ekranu", "Képernyőkép mentése"),
    ("report", "Save battle report", "Zapisz raport bitwy", "Csatajelentés mentése"),
    ("saved", "Saved", "Zapisano", "Mentve"),
    ("enrol", "Enrol pieces", "Naucz się elementów", "Elemek betanítása"),
    ("shortcuts", "Shortcuts", "Skróty", "Billentyűparancsok"),
    ("cities", "Cities", "Miasta", "Városok"),
    ("active", "battle here", "tu trwa bitwa", "itt folyik a csata"),
    ("destroyed", "destroyed", "zniszczone", "elpusztult"),
    ("moloch", "Moloch", "Moloch", "Moloch"),
    ("outpost", "Outpost", "Posterunek", "Előőrs"),
    ("breakdown", "Strength, point by point", "Siła, punkt po punkcie", "Erő, pontról pontra"),
    ("no_units", "no units", "brak jednostek", "nincs egység"),
    ("outcome", "Outcome", "Wynik", "Eredmény"),
    ("wins", "wins", "wygrywa", "nyer"),
    ("wins_tie_stormtrooper", "wins the tie with its Stormtrooper", "wygrywa remis dzięki Szturmowcowi", "a Rohamosztagossal nyeri a döntetlent"),
    ("draw", "Draw", "Remis", "Döntetlen"),
    ("no_winner", "No winner: EMP Assault ended the battle", "Brak zwycięzcy: Atak EMP zakończył bitwę", "Nincs győztes: az EMP-támadás véget vetett a csatának"),
    ("consequences", "Consequences, in order", "Skutki, po kolei", "Következmények, sorrendben"),
    ("violations", "Rule violations", "Naruszenia zasad", "Szabálysértések"),
    ("warnings", "Warnings", "Ostrzeżenia", "Figyelmeztetések"),
    ("none", "none", "brak", "nincs"),
    ("no_city", "No city card in view", "Nie widać karty miasta", "Nem látszik városkártya"),
    ("no_battle", "Every city is destroyed: the game is over", "Wszystkie miasta zniszczone: koniec gry", "Minden város elpusztult: vége a játéknak"),
    ("unidentified", "pieces not identified", "nierozpoznane elementy", "azonosítatlan elem"),
    ("unknown", "unknown", "nieznany", "ismeretlen"),
    ("correct", "Correct this piece", "Popraw ten element", "Elem javítása"),
    ("identity", "Identity", "Tożsamość", "Azonosság"),
    ("as_seen", "as seen", "jak widać", "ahogy látszik"),
    ("likely", "likely", "prawdopodobnie", "valószínűleg"),
    ("tokens", "Tokens", "Żetony", "Jelölők"),
    ("netted", "Netted", "W sieci", "Hálóban"),
    ("apply", "Apply", "Zastosuj", "Alkalmaz"),
    ("clear_correction", "Forget correction", "Usuń poprawkę", "Javítás törlése"),
    ("close", "Close", "Zamknij", "Bezárás"),
    ("corrected", "corrected by you", "poprawione przez ciebie", "általad javítva"),
    ("corrections", "Corrections in force", "Obowiązujące poprawki", "Érvényes javítások"),
    ("click_hint", "Click a piece to correct it.", "Kliknij element, aby go poprawić.", "Kattints egy elemre a javításhoz."),
    ("name_missing", "name the card that may lie unread here", "nazwij kartę, która może tu leżeć nierozpoznana", "nevezd meg a kártyát, amely itt felismeretlenül fekhet"),
    ("vision", "Vision", "Wizja", "Látás"),
    ("truth", "Truth", "Prawda", "Valóság"),
    ("wizard_title", "Enrol your pieces", "Naucz tablelens swoich elementów", "Tanítsd meg a saját elemeidet"),
    ("wizard_intro", "Show each piece to the camera alone on the table (or load its picture), then confirm what it is and what is printed on it. You can skip pieces; they will be reported as unknown.", "Pokaż kamerze każdy element osobno na stole (albo wczytaj jego zdjęcie), potem potwierdź, czym jest i co na nim nadrukowano. Elementy można pominąć; będą zgłaszane jako nieznane.", "Mutasd meg a kamerának egyenként az elemeket az asztalon (vagy tölts be róluk képet), majd erősítsd meg, mi az és mi van rájuk nyomtatva. Elemeket ki is hagyhatsz; ezek ismeretlenként jelennek meg."),
    ("start", "Start", "Zacznij", "Kezdés"),
    ("capture", "Capture from camera", "Zrób zdjęcie kamerą", "Rögzítés kamerával"),
    ("load_picture", "Load picture", "Wczytaj zdjęcie", "Kép betöltése"),
    ("card_back", "Back of a deck's cards", "Rewers kart talii", "A pakli lapjainak hátoldala"),
    ("use_proxy", "Use the printed proxy face", "Użyj drukowanej zastępczej karty", "A nyomtatott helyettesítő lap használata"),
    ("skip", "Skip", "Pomiń", "Kihagyás"),
    ("back", "Back", "Wstecz", "Vissza"),
    ("confirm", "Confirm", "Potwierdź", "Megerősítés"),
    ("printed_strength", "Printed strength", "Nadrukowana siła", "Nyomtatott erő"),
    ("piece", "Piece", "Element", "Elem"),
    ("no_capture", "Nothing captured yet", "Jeszcze nic nie uchwycono", "Még nincs rögzítve semmi"),
    ("city_slots", "Confirm the cities", "Potwierdź miasta", "Városok megerősítése"),
    ("moloch_slots", "Moloch slots", "Miejsca Molocha", "Moloch helyei"),
    ("outpost_slots", "Outpost slots", "Miejsca Posterunku", "Előőrs helyei"),
    ("districts", "Districts", "Dzielnice", "Kerületek"),
    ("save", "Save", "Zapisz", "Mentés"),
    ("cancel", "Cancel", "Anuluj", "Mégse"),
    ("progress", "Progress", "Postęp", "Haladás"),
    ("enrolled", "enrolled", "nauczone", "betanítva"),
    ("wizard_done", "Saved. tablelens uses your pieces from now on.", "Zapisano. Od teraz tablelens używa twoich elementów.", "Mentve. A tablelens mostantól a te elemeidet használja."),
    ("token", "token", "żeton", "jelölő"),
    ("marker", "marker", "znacznik", "jelző"),
    ("error", "Error", "Błąd", "Hiba"),
    ("frame", "Frame", "Klatka", "Képkocka"),
    ("analysis_ms", "analysis", "analiza", "elemzés"),
    ("small_cards", "The cards are small in this frame: bring the camera closer or raise its resolution, or pieces may be misread", "Karty są w tym kadrze małe: przysuń kamerę albo zwiększ jej rozdzielczość, inaczej elementy mogą zostać źle odczytane", "A lapok kicsik ezen a képkockán: vidd közelebb a kamerát, vagy növeld a felbontását, különben az elemek hibásan olvashatók be"),
    ("relit", "The light is far from your enrolled pictures': this frame was read again, corrected", "Światło mocno odbiega od twoich zdjęć elementów: tę klatkę odczytano ponownie, po korekcie", "A fény nagyon eltér a betanított képeidétől: ezt a képkockát korrigálva újra beolvastuk"),
    ("help_text", "Space: pause · Left/Right: previous/next frame · T: truth · L: labels · S: screenshot · R: battle report · E: enrolment · Esc: close", "Spacja: pauza · Lewo/Prawo: poprzednia/następna klatka · T: prawda · L: etykiety · S: zrzut ekranu · R: raport bitwy · E: nauka elementów · Esc: zamknij", "Szóköz: szünet · Bal/Jobb: előző/következő képkocka · T: valóság · L: címkék · S: képernyőkép · R: csatajelentés · E: betanítás · Esc: bezárás"),
    ("unconfirmed_hint", "Values marked ? are not confirmed: enrol your pieces to confirm them.", "Wartości oznaczone ? nie są potwierdzone: naucz tablelens swoich elementów.", "A ?-lel jelölt értékek nincsenek megerősítve: tanítsd be az elemeidet."),
    ("alerts", "Needs your attention", "Wymaga twojej uwagi", "Figyelmet igényel"),
    ("token_missing", "{card} ({city}) lost its {token} token", "{card} ({city}) stracił żeton {token}", "{card} ({city}) elvesztette a(z) {token} jelölőjét"),
    ("missing_since", "not seen since {when}", "niewidoczny od: {when}", "nem látszik ekkor óta: {when}"),
    ("restore", "Restore", "Przywróć", "Visszaállítás"),
    ("restore_hint", "Count the token again, as your correction, until the card leaves the table", "Licz żeton znowu, jako twoją poprawkę, aż karta zejdzie ze stołu", "A jelölő újra számít, a te javításodként, amíg a lap le nem kerül az asztalról"),
    ("bonus_due", "{card} entered undefended {city} without its +1 token: put one on it", "{card} wszedł do niebronionego miasta {city} bez żetonu +1: połóż go", "{card} védtelen városba lépett ({city}) +1-es jelölő nélkül: tegyél rá egyet"),
    ("seen_at", "seen at {when}", "widziane: {when}", "észlelve: {when}"),
    ("dismiss", "Dismiss", "Odrzuć", "Elvetés"),
    ("dismiss_hint", "The +1 is on the card, or not due: stop reminding me", "Żeton +1 leży na karcie albo się nie należy: nie przypominaj", "A +1 a lapon van, vagy nem jár: ne emlékeztess"),
    ("battle_log", "Battle log", "Dziennik bitew", "Csatanapló"),
    ("no_battles", "No battle resolved yet.", "Żadna bitwa nie została jeszcze rozstrzygnięta.", "Még nem dőlt el csata."),
    ("new_game", "New game", "Nowa gra", "Új játék"),
    ("new_game_hint", "Forget this game's battles and alerts and follow a new one", "Zapomnij bitwy i alerty tej gry i śledź nową", "Felejtsd el a játék csatáit és figyelmeztetéseit, és kövess egy újat"),
    ("at_step", "step {n}", "krok {n}", "{n}. lépés"),
    ("at_frame", "frame {n}", "klatka {n}", "{n}. képkocka"),
    ("ago_s", "{n} s ago", "{n} s temu", "{n} mp-e"),
    ("ago_min", "{n} min ago", "{n} min temu", "{n} perce"),
    ("journal_note", "Kept in {path}", "Zapisywane w {path}", "Mentve ide: {path}"),
    ("resumed", "resumed after a restart", "wznowione po ponownym uruchomieniu", "újraindítás után folytatva"),
    ("following", "Following the game…", "Śledzę grę…", "A játék követése…"),
];

/// The interface string `key` in `lang` (the key itself when it is missing).
pub fn tr(lang: Lang, key: &'static str) -> &'static str {
    match TABLE.iter().find(|row| row.0 == key) {
        Some(&(_, en, pl, hu)) => match lang {
            Lang::En => en,
            Lang::Pl => pl,
            Lang::Hu => hu,
        },
        None => key,
    }
}

/// The interface template `key` in `lang` with each `{name}` replaced by its value.
pub fn trf(lang: Lang, key: &'static str, args: &[(&str, &str)]) -> String {
    let mut s = tr(lang, key).to_string();
    for (name, value) in args {
        s = s.replace(&format!("{{{name}}}"), value);
    }
    s
}

/// A city's name in `lang`.
pub fn city_name(cat: &Catalogue, lang: Lang, id: CityId) -> String {
    cat.city(id).names.get(lang.code()).to_string()
}

/// The name of any component id (card, city, `<city>_destroyed`, token, marker) in `lang`;
/// the id itself when it is none of these.
pub fn component_name(cat: &Catalogue, lang: Lang, id: &str) -> String {
    if let Some(card) = cat.card(id) {
        return card.names.get(lang.code()).to_string();
    }
    match CityId::parse_face(id) {
        Some((city, false)) => return city_name(cat, lang, city),
        Some((city, true)) => {
            return format!("{} ({})", city_name(cat, lang, city), tr(lang, "destroyed"))
        }
        None => {}
    }
    if id == tablelens_vision::CARD_BACK {
        return tr(lang, "card_back").to_string();
    }
    if let Some(t) = id.strip_prefix("token_") {
        let shown = match t {
            "plus1" => "+1",
            "plus2" => "+2",
            "minus2" => "-2",
            other => other,
        };
        return format!("{} {shown}", tr(lang, "token"));
    }
    if let Some(m) = id.strip_prefix("marker_") {
        return format!("{} {}", tr(lang, "marker"), m.replace('_', " "));
    }
    id.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_unique_and_translated() {
        let mut seen = std::collections::HashSet::new();
        for (key, en, pl, hu) in TABLE {
            assert!(seen.insert(key), "duplicate key {key}");
            assert!(!en.is_empty() && !pl.is_empty() && !hu.is_empty(), "{key}");
        }
    }

    #[test]
    fn every_translation_has_the_placeholders_of_the_english() {
        let names = |t: &str| {
            let mut v: Vec<String> = t
                .split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
                .collect();
            v.sort();
            v
        };
        for (key, en, pl, hu) in TABLE {
            assert_eq!(names(en), names(pl), "{key}");
            assert_eq!(names(en), names(hu), "{key}");
        }
        assert_eq!(
            trf(Lang::En, "at_step", &[("n", "7")]),
            "step 7",
            "placeholders are filled"
        );
    }

    #[test]
    fn locale_tags_choose_the_language() {
        assert_eq!(Lang::from_locale("pl-PL"), Lang::Pl);
        assert_eq!(Lang::from_locale("hu_HU.UTF-8"), Lang::Hu);
        assert_eq!(Lang::from_locale("de-DE"), Lang::En);
    }

    #[test]
    fn names_come_from_the_catalogue() {
        let cat = Catalogue::bundled();
        let en = component_name(&cat, Lang::En, "hornet");
        assert_eq!(en, cat.card("hornet").unwrap().names.en);
        assert!(component_name(&cat, Lang::Pl, "iron_gate_destroyed").contains("zniszczone"));
        assert_eq!(component_name(&cat, Lang::En, "token_plus1"), "token +1");
        assert_eq!(tr(Lang::Hu, "no_such_key"), "no_such_key");
    }
}
