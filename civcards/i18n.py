"""Message catalogue of the interfaces: names and sentences in five languages.

A plain dictionary, no dependencies, so that the terminal game and the web
table share it. The names of domains, effects and game terms are the
rulebooks' own (the table at the end of RULES.md); the sentences of the
interface are ours.

>>> t("de", "domain.S")
'Wissenschaft'
>>> domain_name("pt", 0), domain_name("fr", "C"), effect_name("es", "discovery")
('Poder Militar', 'Art', 'Descubrimiento')
>>> t("en", "ui.turn_of", name="Ana")
"Ana's turn"
"""

from __future__ import annotations

from typing import Final

from .carta.moves import EFFECT_KINDS as _EFFECT_KINDS

LANGS: Final = ("en", "es", "de", "fr", "pt")
DEFAULT_LANG: Final = "en"
DOMAIN_LETTERS: Final = "MRESCU"

#: Effect kinds as the notation writes them, in the order of the rules (R15-R20).
EFFECT_KINDS: Final = _EFFECT_KINDS

#: key -> language -> text. Texts may hold ``{name}`` fields filled by :func:`t`.
MESSAGES: Final[dict[str, dict[str, str]]] = {
    # -- the rulebooks' names (RULES.md, "Names of things in the five languages")
    "domain.M": {
        "en": "Military",
        "es": "Militar",
        "de": "Militär",
        "fr": "Militaire",
        "pt": "Poder Militar",
    },
    "domain.R": {
        "en": "Religion",
        "es": "Religión",
        "de": "Religion",
        "fr": "Religion",
        "pt": "Religião",
    },
    "domain.E": {
        "en": "Economy",
        "es": "Economía",
        "de": "Wirtschaft",
        "fr": "Économie",
        "pt": "Economia",
    },
    "domain.S": {
        "en": "Science",
        "es": "Ciencia",
        "de": "Wissenschaft",
        "fr": "Science",
        "pt": "Ciência",
    },
    "domain.C": {"en": "Culture", "es": "Cultura", "de": "Kultur", "fr": "Art", "pt": "Artes"},
    "domain.U": {"en": "Utopia", "es": "Utopía", "de": "Utopia", "fr": "Utopie", "pt": "Utopia"},
    "effect.assassination": {
        "en": "Assassination",
        "es": "Asesinato",
        "de": "Hinrichtung",
        "fr": "Assassinat",
        "pt": "Assassinato",
    },
    "effect.purge": {
        "en": "Purge",
        "es": "Purga",
        "de": "Säuberung",
        "fr": "Purge",
        "pt": "Expiação",
    },
    "effect.attack": {
        "en": "Attack",
        "es": "Ataque",
        "de": "Angriff",
        "fr": "Attaque",
        "pt": "Ataque",
    },
    "effect.holybook": {
        "en": "Holy Book",
        "es": "Libro Sagrado",
        "de": "Heilige Schrift",
        "fr": "Livre Saint",
        "pt": "Escritura Sagrada",
    },
    "effect.divineright": {
        "en": "Divine Right",
        "es": "Derecho Divino",
        "de": "Göttliches Recht",
        "fr": "Droit Divin",
        "pt": "Direito Divino",
    },
    "effect.inquisition": {
        "en": "Inquisition",
        "es": "Inquisición",
        "de": "Inquisition",
        "fr": "Inquisition",
        "pt": "Inquisição",
    },
    "effect.development": {
        "en": "Development",
        "es": "Desarrollo",
        "de": "Entwicklung",
        "fr": "Développement",
        "pt": "Desenvolvimento",
    },
    "effect.monopoly": {
        "en": "Monopoly",
        "es": "Monopolio",
        "de": "Monopol",
        "fr": "Monopole",
        "pt": "Monopólio",
    },
    "effect.embargo": {
        "en": "Embargo",
        "es": "Embargo",
        "de": "Embargo",
        "fr": "Embargo",
        "pt": "Embargo",
    },
    "effect.experiment": {
        "en": "Experiment",
        "es": "Experimento",
        "de": "Experiment",
        "fr": "Expérience",
        "pt": "Experimento",
    },
    "effect.research": {
        "en": "Research",
        "es": "Investigación",
        "de": "Forschung",
        "fr": "Recherche",
        "pt": "Pesquisa",
    },
    "effect.discovery": {
        "en": "Discovery",
        "es": "Descubrimiento",
        "de": "Durchbruch",
        "fr": "Saut technologique",
        "pt": "Descoberta",
    },
    "effect.oligarchy": {
        "en": "Oligarchy",
        "es": "Oligarquía",
        "de": "Oligarchie",
        "fr": "Oligarchie",
        "pt": "Oligarquia",
    },
    "effect.republic": {
        "en": "Republic",
        "es": "República",
        "de": "Republik",
        "fr": "République",
        "pt": "República",
    },
    "effect.democracy": {
        "en": "Democracy",
        "es": "Democracia",
        "de": "Demokratie",
        "fr": "Démocratie",
        "pt": "Democracia",
    },
    "effect.inspiration": {
        "en": "Inspiration",
        "es": "Inspiración",
        "de": "Inspiration",
        "fr": "Inspiration",
        "pt": "Inspiração",
    },
    "term.coin": {
        "en": "Culture coin",
        "es": "Moneda de Cultura",
        "de": "Kulturmünze",
        "fr": "Pièce de Majorité en Art",
        "pt": "Moeda das Artes",
    },
    "term.hegemony": {
        "en": "Hegemony",
        "es": "Hegemonía",
        "de": "Vorherrschaft",
        "fr": "Hégémonie",
        "pt": "Hegemonia",
    },
    "term.majorities": {
        "en": "Majorities",
        "es": "Mayorías",
        "de": "Mehrheiten",
        "fr": "Majorités",
        "pt": "Dominação",
    },
    "term.play_area": {
        "en": "play area",
        "es": "zona de juego",
        "de": "Auslage",
        "fr": "Plan de jeu",
        "pt": "área de jogo",
    },
    "term.hand_size": {
        "en": "hand size",
        "es": "tamaño de la mano",
        "de": "Nachziehlimit",
        "fr": "limite de cartes en main",
        "pt": "limite da mão",
    },
    "term.era": {"en": "era", "es": "Era", "de": "Zeitalter", "fr": "Âge", "pt": "Era"},
    "term.draft": {
        "en": "draft",
        "es": "variante por selección",
        "de": "Draft-Variante",
        "fr": "variante Draft",
        "pt": "variante Draft",
    },
    # -- what each effect does (shown by the help command)
    "help.assassination": {
        "en": "Discard 1 card from your hand.",
        "es": "Descarta 1 carta de tu mano.",
        "de": "Wirf 1 Karte aus deiner Hand ab.",
        "fr": "Défaussez 1 carte de votre main.",
        "pt": "Descarte 1 carta da sua mão.",
    },
    "help.purge": {
        "en": "Discard 2 cards from your hand (1 if you hold only 1).",
        "es": "Descarta 2 cartas de tu mano (1 si solo tienes 1).",
        "de": "Wirf 2 Karten aus deiner Hand ab (1, wenn du nur 1 hast).",
        "fr": "Défaussez 2 cartes de votre main (1 si vous n'en avez qu'une).",
        "pt": "Descarte 2 cartas da sua mão (1 se tiver só 1).",
    },
    "help.attack": {
        "en": "Discard a Military card from your play area, then choose a domain where you still have a card: you and every other player with a card of it discard one.",
        "es": "Descarta una carta Militar de tu zona de juego y elige un dominio en el que aún tengas una carta: tú y cada jugador con una carta de ese dominio descartáis una.",
        "de": "Wirf eine Militär-Karte aus deiner Auslage ab und wähle einen Bereich, in dem du noch eine Karte hast: du und jeder andere mit einer Karte dort werft eine ab.",
        "fr": "Défaussez une carte Militaire de votre plan de jeu, puis choisissez un domaine où vous avez encore une carte : vous et chaque joueur qui en a une en défaussez une.",
        "pt": "Descarte uma carta de Poder Militar da sua área de jogo e escolha um domínio em que ainda tenha uma carta: você e cada jogador com uma carta dele descartam uma.",
    },
    "help.holybook": {
        "en": "Your hand size is 5: at the end of your turn you draw up to 5 cards.",
        "es": "El tamaño de tu mano es 5: al final de tu turno robas hasta tener 5 cartas.",
        "de": "Dein Nachziehlimit ist 5: am Ende deines Zuges ziehst du auf 5 Karten nach.",
        "fr": "Votre limite de cartes en main est 5 : à la fin du tour vous piochez jusqu'à 5 cartes.",
        "pt": "O limite da sua mão é 5: no fim da sua vez você compra até ter 5 cartas.",
    },
    "help.divineright": {
        "en": "Your hand size is 7.",
        "es": "El tamaño de tu mano es 7.",
        "de": "Dein Nachziehlimit ist 7.",
        "fr": "Votre limite de cartes en main est 7.",
        "pt": "O limite da sua mão é 7.",
    },
    "help.inquisition": {
        "en": "Discard a Religion card: take another player's whole hand, then give back as many cards of your choice.",
        "es": "Descarta una carta de Religión: toma toda la mano de otro jugador y devuélvele tantas cartas como tenía, las que elijas.",
        "de": "Wirf eine Religion-Karte ab: nimm einem Mitspieler alle Handkarten und gib ihm ebenso viele Karten deiner Wahl zurück.",
        "fr": "Défaussez une carte Religion : prenez toute la main d'un autre joueur, puis rendez-lui autant de cartes de votre choix.",
        "pt": "Descarte uma carta de Religião: pegue toda a mão de outro jogador e devolva-lhe a mesma quantidade de cartas à sua escolha.",
    },
    "help.development": {
        "en": "Discard 1 card from your play area, then play 1 card from your hand.",
        "es": "Descarta 1 carta de tu zona de juego y juega 1 carta de tu mano.",
        "de": "Wirf 1 Karte aus deiner Auslage ab und spiele dann 1 Karte aus der Hand aus.",
        "fr": "Défaussez 1 carte de votre plan de jeu, puis jouez 1 carte de votre main.",
        "pt": "Descarte 1 carta da sua área de jogo e jogue 1 carta da sua mão.",
    },
    "help.monopoly": {
        "en": "Discard 2 cards from your play area, then play 2 cards from your hand.",
        "es": "Descarta 2 cartas de tu zona de juego y juega 2 cartas de tu mano.",
        "de": "Wirf 2 Karten aus deiner Auslage ab und spiele dann 2 Karten aus der Hand aus.",
        "fr": "Défaussez 2 cartes de votre plan de jeu, puis jouez 2 cartes de votre main.",
        "pt": "Descarte 2 cartas da sua área de jogo e jogue 2 cartas da sua mão.",
    },
    "help.embargo": {
        "en": "Put your Economy card face down on a domain of another player: during their next turn they cannot play cards of that domain.",
        "es": "Coloca tu carta de Economía boca abajo sobre un dominio de otro jugador: en su próximo turno no puede jugar cartas de ese dominio.",
        "de": "Lege deine Wirtschaft-Karte verdeckt auf einen Bereich eines Mitspielers: in seinem nächsten Zug darf er keine Karten dieses Bereichs ausspielen.",
        "fr": "Posez votre carte Économie face cachée sur un domaine d'un autre joueur : à son prochain tour il ne peut pas jouer de carte de ce domaine.",
        "pt": "Coloque sua carta de Economia virada para baixo num domínio de outro jogador: na próxima vez dele, ele não pode jogar cartas desse domínio.",
    },
    "help.experiment": {
        "en": "Return 1 card from your play area to your hand, then play 1 card (it may be the same).",
        "es": "Devuelve 1 carta de tu zona de juego a tu mano y juega 1 carta (puede ser la misma).",
        "de": "Nimm 1 Karte aus deiner Auslage auf die Hand und spiele dann 1 Karte aus (auch dieselbe).",
        "fr": "Reprenez 1 carte de votre plan de jeu en main, puis jouez 1 carte (éventuellement la même).",
        "pt": "Volte 1 carta da sua área de jogo para a mão e jogue 1 carta (pode ser a mesma).",
    },
    "help.research": {
        "en": "Return 2 cards from your play area to your hand, then play 2 cards.",
        "es": "Devuelve 2 cartas de tu zona de juego a tu mano y juega 2 cartas.",
        "de": "Nimm 2 Karten aus deiner Auslage auf die Hand und spiele dann 2 Karten aus.",
        "fr": "Reprenez 2 cartes de votre plan de jeu en main, puis jouez 2 cartes.",
        "pt": "Volte 2 cartas da sua área de jogo para a mão e jogue 2 cartas.",
    },
    "help.discovery": {
        "en": "Discard a Science card: draw the top 5 cards of the deck, then discard 5 cards of your choice from your hand.",
        "es": "Descarta una carta de Ciencia: roba las 5 primeras cartas del mazo y descarta 5 cartas de tu mano, las que elijas.",
        "de": "Wirf eine Wissenschaft-Karte ab: ziehe die obersten 5 Karten des Stapels und wirf 5 Handkarten deiner Wahl ab.",
        "fr": "Défaussez une carte Science : piochez les 5 premières cartes de la pioche, puis défaussez 5 cartes de votre choix.",
        "pt": "Descarte uma carta de Ciência: compre as 5 cartas do topo do baralho e descarte 5 cartas da mão à sua escolha.",
    },
    "help.oligarchy": {
        "en": "Take 1 card of your choice from the discard pile into your hand.",
        "es": "Toma 1 carta a tu elección de la pila de descartes.",
        "de": "Nimm 1 Karte deiner Wahl vom Ablagestapel auf die Hand.",
        "fr": "Prenez en main 1 carte de votre choix dans la défausse.",
        "pt": "Pegue 1 carta à sua escolha da pilha de descarte.",
    },
    "help.republic": {
        "en": "Take 2 cards of your choice from the discard pile into your hand.",
        "es": "Toma 2 cartas a tu elección de la pila de descartes.",
        "de": "Nimm 2 Karten deiner Wahl vom Ablagestapel auf die Hand.",
        "fr": "Prenez en main 2 cartes de votre choix dans la défausse.",
        "pt": "Pegue 2 cartas à sua escolha da pilha de descarte.",
    },
    "help.democracy": {
        "en": "Put your Utopia card face down on a domain of another player: for the rest of the game they need one more card there to win by Hegemony.",
        "es": "Coloca tu carta de Utopía boca abajo sobre un dominio de otro jugador: hasta el final necesita una carta más allí para ganar por Hegemonía.",
        "de": "Lege deine Utopia-Karte verdeckt auf einen Bereich eines Mitspielers: bis zum Spielende braucht er dort eine Karte mehr für die Vorherrschaft.",
        "fr": "Posez votre carte Utopie face cachée sur un domaine d'un autre joueur : jusqu'à la fin il lui faut une carte de plus pour l'Hégémonie.",
        "pt": "Coloque sua carta de Utopia virada para baixo num domínio de outro jogador: até o fim ele precisa de uma carta a mais ali para a Hegemonia.",
    },
    "help.inspiration": {
        "en": "With strictly more Culture cards than every other player: once per turn, copy a level-1 or level-2 effect that another player can use now. The Culture coin marks it.",
        "es": "Con más cartas de Cultura que cualquier otro jugador: una vez por turno, copia un efecto de nivel 1 o 2 que otro jugador pueda usar ahora. La Moneda de Cultura lo señala.",
        "de": "Mit mehr Kultur-Karten als jeder andere: einmal pro Zug einen Effekt der Stufe 1 oder 2 kopieren, den ein Mitspieler jetzt nutzen kann. Die Kulturmünze markiert ihn.",
        "fr": "Avec strictement plus de cartes Art que chaque autre joueur : une fois par tour, copiez un effet de niveau 1 ou 2 qu'un autre joueur peut utiliser. La Pièce de Majorité en Art le marque.",
        "pt": "Com mais cartas de Artes do que qualquer outro jogador: uma vez por vez, copie um efeito de nível 1 ou 2 que outro jogador possa usar agora. A Moeda das Artes o marca.",
    },
    # -- help screen
    "help.title": {
        "en": "Effects",
        "es": "Efectos",
        "de": "Effekte",
        "fr": "Effets",
        "pt": "Efeitos",
    },
    "help.level1": {"en": "L1", "es": "N1", "de": "S1", "fr": "N1", "pt": "N1"},
    "help.level2": {"en": "L2", "es": "N2", "de": "S2", "fr": "N2", "pt": "N2"},
    "help.discard": {"en": "disc.", "es": "desc.", "de": "Abw.", "fr": "déf.", "pt": "desc."},
    "help.levels_legend": {
        "en": "L1, L2: permanent effects of level 1 and 2; disc.: discard effect.",
        "es": "N1, N2: efectos permanentes de nivel 1 y 2; desc.: efecto de descarte.",
        "de": "S1, S2: dauerhafte Effekte der Stufe 1 und 2; Abw.: Abwurf-Effekt.",
        "fr": "N1, N2 : effets permanents de niveau 1 et 2 ; déf. : effet de défausse.",
        "pt": "N1, N2: efeitos permanentes de nível 1 e 2; desc.: efeito de descarte.",
    },
    "help.turn": {
        "en": "A turn: 1. play a card from your hand; 2. use effects (per domain at most one permanent effect and one discard effect); 3. draw up to your hand size. Levels 1 and 2 need {l1} and {l2} cards of a domain in your play area; {heg} cards of one domain at the end of your turn win by Hegemony. When the deck runs out the round is finished and Majorities decide.",
        "es": "Un turno: 1. juega una carta de tu mano; 2. usa efectos (por dominio, como mucho un efecto permanente y un efecto de descarte); 3. roba hasta tu tamaño de mano. Los niveles 1 y 2 piden {l1} y {l2} cartas de un dominio en tu zona de juego; {heg} cartas de un dominio al final de tu turno ganan por Hegemonía. Cuando se acaba el mazo se termina la ronda y deciden las Mayorías.",
        "de": "Ein Zug: 1. spiele eine Karte aus der Hand aus; 2. nutze Effekte (je Bereich höchstens einen dauerhaften und einen Abwurf-Effekt); 3. ziehe bis zu deinem Nachziehlimit nach. Stufe 1 und 2 brauchen {l1} und {l2} Karten eines Bereichs in deiner Auslage; {heg} Karten eines Bereichs am Ende deines Zuges gewinnen durch Vorherrschaft. Ist der Stapel leer, wird die Runde beendet und die Mehrheiten entscheiden.",
        "fr": "Un tour : 1. jouez une carte de votre main ; 2. utilisez des effets (par domaine, au plus un effet permanent et un effet de défausse) ; 3. piochez jusqu'à votre limite de cartes en main. Les niveaux 1 et 2 demandent {l1} et {l2} cartes d'un domaine sur votre plan de jeu ; {heg} cartes d'un domaine à la fin de votre tour gagnent par Hégémonie. Quand la pioche est vide, on finit le tour de table et les Majorités décident.",
        "pt": "Uma vez: 1. jogue uma carta da sua mão; 2. use efeitos (por domínio, no máximo um efeito permanente e um de descarte); 3. compre até o limite da mão. Os níveis 1 e 2 pedem {l1} e {l2} cartas de um domínio na sua área de jogo; {heg} cartas de um domínio no fim da sua vez vencem por Hegemonia. Quando o baralho acaba, a rodada termina e a Dominação decide.",
    },
    "help.commands": {
        "en": "Type the number of a choice, or a move in notation (e.g. play S, attack C). Commands: ? help, log all moves, quit save and leave.",
        "es": "Escribe el número de una opción o una jugada en notación (p. ej. play S, attack C). Órdenes: ? ayuda, log todas las jugadas, quit guardar y salir.",
        "de": "Gib die Nummer einer Wahl ein oder einen Zug in Notation (z. B. play S, attack C). Befehle: ? Hilfe, log alle Züge, quit speichern und beenden.",
        "fr": "Tapez le numéro d'un choix, ou un coup en notation (p. ex. play S, attack C). Commandes : ? aide, log tous les coups, quit sauver et quitter.",
        "pt": "Digite o número de uma opção ou uma jogada em notação (ex.: play S, attack C). Comandos: ? ajuda, log todas as jogadas, quit salvar e sair.",
    },
    "help.legend": {
        "en": "★ level 1  ★★ level 2  ♛ Hegemony  E embargo  D democracy  ◉ Culture coin",
        "es": "★ nivel 1  ★★ nivel 2  ♛ Hegemonía  E embargo  D democracia  ◉ Moneda de Cultura",
        "de": "★ Stufe 1  ★★ Stufe 2  ♛ Vorherrschaft  E Embargo  D Demokratie  ◉ Kulturmünze",
        "fr": "★ niveau 1  ★★ niveau 2  ♛ Hégémonie  E embargo  D démocratie  ◉ Pièce de Majorité en Art",
        "pt": "★ nível 1  ★★ nível 2  ♛ Hegemonia  E embargo  D democracia  ◉ Moeda das Artes",
    },
    # -- moves described in words
    "move.play": {
        "en": "Play {cards}",
        "es": "Jugar {cards}",
        "de": "{cards} ausspielen",
        "fr": "Jouer {cards}",
        "pt": "Jogar {cards}",
    },
    "move.keep": {
        "en": "Keep {cards}",
        "es": "Quedarse con {cards}",
        "de": "{cards} behalten",
        "fr": "Garder {cards}",
        "pt": "Ficar com {cards}",
    },
    "move.keep_hidden": {
        "en": "keeps a card",
        "es": "se queda una carta",
        "de": "behält eine Karte",
        "fr": "garde une carte",
        "pt": "fica com uma carta",
    },
    "move.take": {
        "en": "Take {cards} from the centre",
        "es": "Tomar {cards} del centro",
        "de": "{cards} aus der Mitte nehmen",
        "fr": "Prendre {cards} au centre",
        "pt": "Pegar {cards} do centro",
    },
    "move.end": {
        "en": "End the turn (draw)",
        "es": "Terminar el turno (robar)",
        "de": "Zug beenden (nachziehen)",
        "fr": "Finir le tour (piocher)",
        "pt": "Terminar a vez (comprar)",
    },
    "move.discard_hand": {
        "en": "{effect}: discard {cards} from the hand",
        "es": "{effect}: descartar {cards} de la mano",
        "de": "{effect}: {cards} aus der Hand abwerfen",
        "fr": "{effect} : défausser {cards} de la main",
        "pt": "{effect}: descartar {cards} da mão",
    },
    "move.attack": {
        "en": "{effect} on {domain}",
        "es": "{effect} a {domain}",
        "de": "{effect} auf {domain}",
        "fr": "{effect} sur {domain}",
        "pt": "{effect} em {domain}",
    },
    "move.inquisition": {
        "en": "{effect} on {seat}",
        "es": "{effect} a {seat}",
        "de": "{effect} gegen {seat}",
        "fr": "{effect} sur {seat}",
        "pt": "{effect} em {seat}",
    },
    "move.inquisition_give": {
        "en": "{effect} on {seat}, give back {cards}",
        "es": "{effect} a {seat}, devolver {cards}",
        "de": "{effect} gegen {seat}, {cards} zurückgeben",
        "fr": "{effect} sur {seat}, rendre {cards}",
        "pt": "{effect} em {seat}, devolver {cards}",
    },
    "move.inquisition_hidden": {
        "en": "{effect} on {seat}: see their hand, then give back",
        "es": "{effect} a {seat}: ver su mano y devolver",
        "de": "{effect} gegen {seat}: Hand ansehen, dann zurückgeben",
        "fr": "{effect} sur {seat} : voir sa main, puis rendre",
        "pt": "{effect} em {seat}: ver a mão e devolver",
    },
    "move.swap_discard": {
        "en": "{effect}: discard {cards}, play {more}",
        "es": "{effect}: descartar {cards}, jugar {more}",
        "de": "{effect}: {cards} abwerfen, {more} ausspielen",
        "fr": "{effect} : défausser {cards}, jouer {more}",
        "pt": "{effect}: descartar {cards}, jogar {more}",
    },
    "move.swap_discard_only": {
        "en": "{effect}: discard {cards}",
        "es": "{effect}: descartar {cards}",
        "de": "{effect}: {cards} abwerfen",
        "fr": "{effect} : défausser {cards}",
        "pt": "{effect}: descartar {cards}",
    },
    "move.swap_return": {
        "en": "{effect}: return {cards}, play {more}",
        "es": "{effect}: recuperar {cards}, jugar {more}",
        "de": "{effect}: {cards} zurücknehmen, {more} ausspielen",
        "fr": "{effect} : reprendre {cards}, jouer {more}",
        "pt": "{effect}: recolher {cards}, jogar {more}",
    },
    "move.swap_return_only": {
        "en": "{effect}: return {cards}",
        "es": "{effect}: recuperar {cards}",
        "de": "{effect}: {cards} zurücknehmen",
        "fr": "{effect} : reprendre {cards}",
        "pt": "{effect}: recolher {cards}",
    },
    "move.place": {
        "en": "{effect} on {seat}: {domain}",
        "es": "{effect} a {seat}: {domain}",
        "de": "{effect} gegen {seat}: {domain}",
        "fr": "{effect} sur {seat} : {domain}",
        "pt": "{effect} em {seat}: {domain}",
    },
    "move.discovery_hidden": {
        "en": "{effect}: draw 5, then discard 5",
        "es": "{effect}: robar 5 y descartar 5",
        "de": "{effect}: 5 ziehen, dann 5 abwerfen",
        "fr": "{effect} : piocher 5, puis défausser 5",
        "pt": "{effect}: comprar 5 e descartar 5",
    },
    "move.discovery": {
        "en": "{effect}: discard {cards}",
        "es": "{effect}: descartar {cards}",
        "de": "{effect}: {cards} abwerfen",
        "fr": "{effect} : défausser {cards}",
        "pt": "{effect}: descartar {cards}",
    },
    "move.discovery_empty": {
        "en": "{effect} (the deck is empty)",
        "es": "{effect} (el mazo está vacío)",
        "de": "{effect} (der Stapel ist leer)",
        "fr": "{effect} (la pioche est vide)",
        "pt": "{effect} (o baralho está vazio)",
    },
    "move.take_discard": {
        "en": "{effect}: take {cards} from the discard pile",
        "es": "{effect}: tomar {cards} de los descartes",
        "de": "{effect}: {cards} vom Ablagestapel nehmen",
        "fr": "{effect} : prendre {cards} dans la défausse",
        "pt": "{effect}: pegar {cards} do descarte",
    },
    "move.inspiration": {
        "en": "{effect} from {seat} → {copy}",
        "es": "{effect} de {seat} → {copy}",
        "de": "{effect} von {seat} → {copy}",
        "fr": "{effect} de {seat} → {copy}",
        "pt": "{effect} de {seat} → {copy}",
    },
    "move.handsize": {
        "en": "{effect} (hand size {n})",
        "es": "{effect} (tamaño de la mano {n})",
        "de": "{effect} (Nachziehlimit {n})",
        "fr": "{effect} (limite de cartes en main {n})",
        "pt": "{effect} (limite da mão {n})",
    },
    "move.group": {
        "en": "{effect}… ({count} choices)",
        "es": "{effect}… ({count} opciones)",
        "de": "{effect}… ({count} Möglichkeiten)",
        "fr": "{effect}… ({count} choix)",
        "pt": "{effect}… ({count} opções)",
    },
    "move.group_play": {
        "en": "Play a card… ({count} choices)",
        "es": "Jugar una carta… ({count} opciones)",
        "de": "Eine Karte ausspielen… ({count} Möglichkeiten)",
        "fr": "Jouer une carte… ({count} choix)",
        "pt": "Jogar uma carta… ({count} opções)",
    },
    # -- the screen
    "ui.title": {
        "en": "CIV: Carta Impera Victoria",
        "es": "CIV: Carta Impera Victoria",
        "de": "CIV: Carta Impera Victoria",
        "fr": "CIV : Carta Impera Victoria",
        "pt": "CIV: Carta Impera Victoria",
    },
    "ui.deck": {
        "en": "Deck {n}",
        "es": "Mazo {n}",
        "de": "Stapel {n}",
        "fr": "Pioche {n}",
        "pt": "Baralho {n}",
    },
    "ui.turn": {
        "en": "Turn {n}",
        "es": "Turno {n}",
        "de": "Zug {n}",
        "fr": "Tour {n}",
        "pt": "Vez {n}",
    },
    "ui.thresholds": {
        "en": "level 1: {l1} · level 2: {l2} · Hegemony: {heg}",
        "es": "nivel 1: {l1} · nivel 2: {l2} · Hegemonía: {heg}",
        "de": "Stufe 1: {l1} · Stufe 2: {l2} · Vorherrschaft: {heg}",
        "fr": "niveau 1 : {l1} · niveau 2 : {l2} · Hégémonie : {heg}",
        "pt": "nível 1: {l1} · nível 2: {l2} · Hegemonia: {heg}",
    },
    "ui.last_round": {
        "en": "Last round!",
        "es": "¡Última ronda!",
        "de": "Letzte Runde!",
        "fr": "Dernier tour de table !",
        "pt": "Última rodada!",
    },
    "ui.seat": {"en": "Seat", "es": "Asiento", "de": "Platz", "fr": "Place", "pt": "Lugar"},
    "ui.hand": {"en": "Hand", "es": "Mano", "de": "Hand", "fr": "Main", "pt": "Mão"},
    "ui.team": {"en": "Team", "es": "Equipo", "de": "Team", "fr": "Équipe", "pt": "Equipe"},
    "ui.start": {
        "en": "start player",
        "es": "jugador inicial",
        "de": "Startspieler",
        "fr": "premier joueur",
        "pt": "jogador inicial",
    },
    "ui.you": {"en": "You", "es": "Tú", "de": "Du", "fr": "Vous", "pt": "Você"},
    "ui.player_n": {
        "en": "Player {n}",
        "es": "Jugador {n}",
        "de": "Spieler {n}",
        "fr": "Joueur {n}",
        "pt": "Jogador {n}",
    },
    "ui.discard_pile": {
        "en": "Discard pile",
        "es": "Descartes",
        "de": "Ablagestapel",
        "fr": "Défausse",
        "pt": "Descarte",
    },
    "ui.empty": {"en": "empty", "es": "vacío", "de": "leer", "fr": "vide", "pt": "vazio"},
    "ui.marker_embargo": {
        "en": "Embargo on {seat}: {domain} (by {by})",
        "es": "Embargo a {seat}: {domain} (de {by})",
        "de": "Embargo gegen {seat}: {domain} (von {by})",
        "fr": "Embargo sur {seat} : {domain} (par {by})",
        "pt": "Embargo em {seat}: {domain} (de {by})",
    },
    "ui.marker_democracy": {
        "en": "Democracy on {seat}: {domain} (by {by})",
        "es": "Democracia a {seat}: {domain} (de {by})",
        "de": "Demokratie gegen {seat}: {domain} (von {by})",
        "fr": "Démocratie sur {seat} : {domain} (par {by})",
        "pt": "Democracia em {seat}: {domain} (de {by})",
    },
    "ui.coin": {
        "en": "Culture coin: {holder} copies {domain} of {seat}",
        "es": "Moneda de Cultura: {holder} copia {domain} de {seat}",
        "de": "Kulturmünze: {holder} kopiert {domain} von {seat}",
        "fr": "Pièce de Majorité en Art : {holder} copie {domain} de {seat}",
        "pt": "Moeda das Artes: {holder} copia {domain} de {seat}",
    },
    "ui.recent": {
        "en": "Last moves",
        "es": "Últimas jugadas",
        "de": "Letzte Züge",
        "fr": "Derniers coups",
        "pt": "Últimas jogadas",
    },
    "ui.all_moves": {
        "en": "All moves",
        "es": "Todas las jugadas",
        "de": "Alle Züge",
        "fr": "Tous les coups",
        "pt": "Todas as jogadas",
    },
    "ui.no_moves": {
        "en": "no moves yet",
        "es": "aún no hay jugadas",
        "de": "noch keine Züge",
        "fr": "aucun coup pour l'instant",
        "pt": "ainda sem jogadas",
    },
    "ui.your_turn": {
        "en": "Your turn",
        "es": "Tu turno",
        "de": "Du bist am Zug",
        "fr": "À vous de jouer",
        "pt": "Sua vez",
    },
    "ui.turn_of": {
        "en": "{name}'s turn",
        "es": "Turno de {name}",
        "de": "{name} ist am Zug",
        "fr": "Au tour de {name}",
        "pt": "Vez de {name}",
    },
    "ui.phase.draft": {
        "en": "draft: keep a card",
        "es": "selección: quédate una carta",
        "de": "Draft: behalte eine Karte",
        "fr": "draft : gardez une carte",
        "pt": "draft: fique com uma carta",
    },
    "ui.phase.draft_take": {
        "en": "draft: take a centre card",
        "es": "selección: toma una carta del centro",
        "de": "Draft: nimm eine Karte aus der Mitte",
        "fr": "draft : prenez une carte du centre",
        "pt": "draft: pegue uma carta do centro",
    },
    "ui.phase.play": {
        "en": "phase 1: play a card",
        "es": "fase 1: juega una carta",
        "de": "Phase 1: spiele eine Karte aus",
        "fr": "phase 1 : jouez une carte",
        "pt": "fase 1: jogue uma carta",
    },
    "ui.phase.effects": {
        "en": "phase 2: effects, then end the turn",
        "es": "fase 2: efectos, luego termina el turno",
        "de": "Phase 2: Effekte, dann Zug beenden",
        "fr": "phase 2 : effets, puis finissez le tour",
        "pt": "fase 2: efeitos, depois termine a vez",
    },
    "ui.phase.over": {
        "en": "game over",
        "es": "fin de la partida",
        "de": "Spielende",
        "fr": "partie terminée",
        "pt": "fim de jogo",
    },
    "ui.used": {
        "en": "Used this turn: {effects}",
        "es": "Usado en este turno: {effects}",
        "de": "In diesem Zug genutzt: {effects}",
        "fr": "Utilisé ce tour : {effects}",
        "pt": "Usado nesta vez: {effects}",
    },
    "ui.your_hand": {
        "en": "Your hand",
        "es": "Tu mano",
        "de": "Deine Hand",
        "fr": "Votre main",
        "pt": "Sua mão",
    },
    "ui.hand_size_is": {
        "en": "hand size {n}",
        "es": "tamaño de la mano {n}",
        "de": "Nachziehlimit {n}",
        "fr": "limite de cartes en main {n}",
        "pt": "limite da mão {n}",
    },
    "ui.draft_packet": {
        "en": "Cards to choose from",
        "es": "Cartas para elegir",
        "de": "Karten zur Auswahl",
        "fr": "Cartes à choisir",
        "pt": "Cartas para escolher",
    },
    "ui.draft_centre": {
        "en": "Centre",
        "es": "Centro",
        "de": "Mitte",
        "fr": "Centre",
        "pt": "Centro",
    },
    "ui.choices": {
        "en": "Your choices",
        "es": "Tus opciones",
        "de": "Deine Möglichkeiten",
        "fr": "Vos choix",
        "pt": "Suas opções",
    },
    "ui.back": {"en": "back", "es": "volver", "de": "zurück", "fr": "retour", "pt": "voltar"},
    "ui.prompt": {
        "en": "Number or move (? help)",
        "es": "Número o jugada (? ayuda)",
        "de": "Nummer oder Zug (? Hilfe)",
        "fr": "Numéro ou coup (? aide)",
        "pt": "Número ou jogada (? ajuda)",
    },
    "ui.prompt_reveal": {
        "en": "Number or cards",
        "es": "Número o cartas",
        "de": "Nummer oder Karten",
        "fr": "Numéro ou cartes",
        "pt": "Número ou cartas",
    },
    "ui.press_enter": {
        "en": "Press Enter to go back",
        "es": "Pulsa Intro para volver",
        "de": "Enter drücken, um zurückzukehren",
        "fr": "Appuyez sur Entrée pour revenir",
        "pt": "Pressione Enter para voltar",
    },
    "ui.cmd_help": {"en": "help", "es": "ayuda", "de": "hilfe", "fr": "aide", "pt": "ajuda"},
    "ui.cmd_quit": {"en": "quit", "es": "salir", "de": "ende", "fr": "quitter", "pt": "sair"},
    "ui.revealed_discovery": {
        "en": "You drew: {cards}",
        "es": "Has robado: {cards}",
        "de": "Du hast gezogen: {cards}",
        "fr": "Vous avez pioché : {cards}",
        "pt": "Você comprou: {cards}",
    },
    "ui.revealed_discovery_none": {
        "en": "The deck is empty: nothing to draw.",
        "es": "El mazo está vacío: no hay nada que robar.",
        "de": "Der Stapel ist leer: nichts zu ziehen.",
        "fr": "La pioche est vide : rien à piocher.",
        "pt": "O baralho está vazio: nada a comprar.",
    },
    "ui.revealed_inquisition": {
        "en": "{seat}'s hand: {cards}",
        "es": "Mano de {seat}: {cards}",
        "de": "Hand von {seat}: {cards}",
        "fr": "Main de {seat} : {cards}",
        "pt": "Mão de {seat}: {cards}",
    },
    "ui.pool": {
        "en": "You now hold: {cards}",
        "es": "Ahora tienes: {cards}",
        "de": "Du hältst jetzt: {cards}",
        "fr": "Vous tenez maintenant : {cards}",
        "pt": "Agora você tem: {cards}",
    },
    "ui.committed": {
        "en": "{effect} is under way: choose how to finish it (the cards are seen, there is no going back).",
        "es": "{effect} en curso: elige cómo terminarlo (las cartas ya se han visto, no hay vuelta atrás).",
        "de": "{effect} läuft: wähle, wie er endet (die Karten sind gesehen, kein Zurück).",
        "fr": "{effect} en cours : choisissez comment le terminer (les cartes sont vues, pas de retour).",
        "pt": "{effect} em andamento: escolha como terminar (as cartas foram vistas, não há volta).",
    },
    "ui.commit_first": {
        "en": "{effect} shows the cards first; then you choose.",
        "es": "{effect} muestra primero las cartas; luego eliges.",
        "de": "{effect} zeigt zuerst die Karten; dann wählst du.",
        "fr": "{effect} montre d'abord les cartes ; ensuite vous choisissez.",
        "pt": "{effect} mostra primeiro as cartas; depois você escolhe.",
    },
    "ui.bad_number": {
        "en": "There is no choice {n}: type a number from {lo} to {hi}.",
        "es": "No hay opción {n}: escribe un número de {lo} a {hi}.",
        "de": "Es gibt keine Wahl {n}: gib eine Zahl von {lo} bis {hi} ein.",
        "fr": "Il n'y a pas de choix {n} : tapez un nombre de {lo} à {hi}.",
        "pt": "Não há opção {n}: digite um número de {lo} a {hi}.",
    },
    "ui.unreadable": {
        "en": "Not understood: {error}",
        "es": "No se entiende: {error}",
        "de": "Nicht verstanden: {error}",
        "fr": "Pas compris : {error}",
        "pt": "Não entendido: {error}",
    },
    "ui.illegal": {
        "en": "Illegal move: {reason}",
        "es": "Jugada ilegal: {reason}",
        "de": "Unzulässiger Zug: {reason}",
        "fr": "Coup illégal : {reason}",
        "pt": "Jogada ilegal: {reason}",
    },
    "ui.not_a_choice": {
        "en": "{move} is not one of the choices now.",
        "es": "{move} no es una de las opciones ahora.",
        "de": "{move} gehört jetzt nicht zu den Möglichkeiten.",
        "fr": "{move} ne fait pas partie des choix maintenant.",
        "pt": "{move} não é uma das opções agora.",
    },
    "ui.pass_screen": {
        "en": "Pass the screen to {name} and press Enter…",
        "es": "Pasa la pantalla a {name} y pulsa Intro…",
        "de": "Gib den Bildschirm an {name} weiter und drücke Enter…",
        "fr": "Passez l'écran à {name} et appuyez sur Entrée…",
        "pt": "Passe a tela para {name} e pressione Enter…",
    },
    "ui.bot_failed": {
        "en": "{name} failed ({error}); a random move is played for it.",
        "es": "{name} ha fallado ({error}); se juega por él una jugada al azar.",
        "de": "{name} ist gescheitert ({error}); für ihn wird ein Zufallszug gespielt.",
        "fr": "{name} a échoué ({error}) ; un coup au hasard est joué pour lui.",
        "pt": "{name} falhou ({error}); uma jogada aleatória é feita por ele.",
    },
    "ui.saved_at": {
        "en": "The game is saved in {path}.",
        "es": "La partida está guardada en {path}.",
        "de": "Die Partie ist in {path} gespeichert.",
        "fr": "La partie est sauvegardée dans {path}.",
        "pt": "A partida está salva em {path}.",
    },
    "ui.resume_with": {
        "en": "Resume it with: {command}",
        "es": "Continúala con: {command}",
        "de": "Fortsetzen mit: {command}",
        "fr": "Reprenez-la avec : {command}",
        "pt": "Continue com: {command}",
    },
    "ui.not_saved": {
        "en": "The game was not saved (no move was made).",
        "es": "La partida no se ha guardado (no se hizo ninguna jugada).",
        "de": "Die Partie wurde nicht gespeichert (kein Zug gemacht).",
        "fr": "La partie n'a pas été sauvegardée (aucun coup joué).",
        "pt": "A partida não foi salva (nenhuma jogada feita).",
    },
    "ui.interrupted": {
        "en": "Interrupted.",
        "es": "Interrumpido.",
        "de": "Unterbrochen.",
        "fr": "Interrompu.",
        "pt": "Interrompido.",
    },
    "ui.input_ended": {
        "en": "The input has ended before the game.",
        "es": "La entrada se ha terminado antes que la partida.",
        "de": "Die Eingabe endete vor der Partie.",
        "fr": "L'entrée s'est terminée avant la partie.",
        "pt": "A entrada terminou antes da partida.",
    },
    "ui.save_failed": {
        "en": "Could not save to {path}: {error}",
        "es": "No se pudo guardar en {path}: {error}",
        "de": "Speichern in {path} fehlgeschlagen: {error}",
        "fr": "Impossible de sauvegarder dans {path} : {error}",
        "pt": "Não foi possível salvar em {path}: {error}",
    },
    "ui.resumed": {
        "en": "Resumed from {path} after {n} moves.",
        "es": "Reanudada desde {path} tras {n} jugadas.",
        "de": "Fortgesetzt aus {path} nach {n} Zügen.",
        "fr": "Reprise depuis {path} après {n} coups.",
        "pt": "Retomada de {path} após {n} jogadas.",
    },
    # -- the end of the game
    "ui.game_over": {
        "en": "Game over",
        "es": "Fin de la partida",
        "de": "Spielende",
        "fr": "Fin de la partie",
        "pt": "Fim de jogo",
    },
    "ui.winner": {
        "en": "Winner: {who}",
        "es": "Ganador: {who}",
        "de": "Sieger: {who}",
        "fr": "Vainqueur : {who}",
        "pt": "Vencedor: {who}",
    },
    "ui.winners": {
        "en": "Winners: {who}",
        "es": "Ganadores: {who}",
        "de": "Sieger: {who}",
        "fr": "Vainqueurs : {who}",
        "pt": "Vencedores: {who}",
    },
    "ui.by_hegemony": {
        "en": "Victory by Hegemony: {count} {domain} cards at the end of the turn (needed {need}).",
        "es": "Victoria por Hegemonía: {count} cartas de {domain} al final del turno (hacían falta {need}).",
        "de": "Sieg durch Vorherrschaft: {count} {domain}-Karten am Ende des Zuges (nötig: {need}).",
        "fr": "Victoire par Hégémonie : {count} cartes {domain} à la fin du tour ({need} nécessaires).",
        "pt": "Vitória por Hegemonia: {count} cartas de {domain} no fim da vez (eram precisas {need}).",
    },
    "ui.by_majority": {
        "en": "The deck ran out: victory by Majorities.",
        "es": "Se acabó el mazo: victoria por Mayorías.",
        "de": "Der Stapel ist leer: Sieg durch Mehrheiten.",
        "fr": "La pioche est épuisée : victoire aux Majorités.",
        "pt": "O baralho acabou: vitória por Dominação.",
    },
    "ui.points": {"en": "Points", "es": "Puntos", "de": "Punkte", "fr": "Points", "pt": "Pontos"},
    "ui.tiebreak": {
        "en": "Tie on {points} points, broken by the {domain} cards.",
        "es": "Empate a {points} puntos, deshecho por las cartas de {domain}.",
        "de": "Gleichstand bei {points} Punkten, entschieden durch die {domain}-Karten.",
        "fr": "Égalité à {points} points, départagée par les cartes {domain}.",
        "pt": "Empate em {points} pontos, desfeito pelas cartas de {domain}.",
    },
    "ui.shared": {
        "en": "Still tied after every tie-break: the victory is shared.",
        "es": "Siguen empatados tras todos los desempates: la victoria es compartida.",
        "de": "Auch nach allen Entscheidungen gleichauf: der Sieg wird geteilt.",
        "fr": "Toujours à égalité après tous les départages : la victoire est partagée.",
        "pt": "Ainda empatados após todos os desempates: a vitória é compartilhada.",
    },
    "ui.team_name": {
        "en": "Team {seats}",
        "es": "Equipo {seats}",
        "de": "Team {seats}",
        "fr": "Équipe {seats}",
        "pt": "Equipe {seats}",
    },
    "ui.majority_legend": {
        "en": "✓ = majority in the domain (1 point)",
        "es": "✓ = mayoría en el dominio (1 punto)",
        "de": "✓ = Mehrheit im Bereich (1 Punkt)",
        "fr": "✓ = majorité dans le domaine (1 point)",
        "pt": "✓ = maioria no domínio (1 ponto)",
    },
    "ui.record_saved": {
        "en": "Record saved in {path}.",
        "es": "Registro guardado en {path}.",
        "de": "Partiebericht gespeichert in {path}.",
        "fr": "Partie enregistrée dans {path}.",
        "pt": "Registro salvo em {path}.",
    },
    # -- errors of the command line
    "err.players": {
        "en": "--players must be 2, 3 or 4, not {n}.",
        "es": "--players debe ser 2, 3 o 4, no {n}.",
        "de": "--players muss 2, 3 oder 4 sein, nicht {n}.",
        "fr": "--players doit valoir 2, 3 ou 4, pas {n}.",
        "pt": "--players deve ser 2, 3 ou 4, não {n}.",
    },
    "err.seats_count": {
        "en": "--seats names {n} seats; CIV is played by 2, 3 or 4 players.",
        "es": "--seats nombra {n} asientos; CIV se juega con 2, 3 o 4 jugadores.",
        "de": "--seats nennt {n} Plätze; CIV wird zu 2, 3 oder 4 gespielt.",
        "fr": "--seats nomme {n} places ; CIV se joue à 2, 3 ou 4 joueurs.",
        "pt": "--seats nomeia {n} lugares; CIV é jogado por 2, 3 ou 4 jogadores.",
    },
    "err.seats_players": {
        "en": "--seats names {seats} seats but --players is {players}.",
        "es": "--seats nombra {seats} asientos pero --players es {players}.",
        "de": "--seats nennt {seats} Plätze, aber --players ist {players}.",
        "fr": "--seats nomme {seats} places mais --players vaut {players}.",
        "pt": "--seats nomeia {seats} lugares mas --players é {players}.",
    },
    "err.bad_seat": {
        "en": "{seat!r} is not a seat: use human or a bot ({bots}).",
        "es": "{seat!r} no es un asiento: usa human o un bot ({bots}).",
        "de": "{seat!r} ist kein Platz: nimm human oder einen Bot ({bots}).",
        "fr": "{seat!r} n'est pas une place : utilisez human ou un bot ({bots}).",
        "pt": "{seat!r} não é um lugar: use human ou um bot ({bots}).",
    },
    "err.teams": {
        "en": "--teams needs exactly 4 players, not {n}.",
        "es": "--teams necesita exactamente 4 jugadores, no {n}.",
        "de": "--teams braucht genau 4 Spieler, nicht {n}.",
        "fr": "--teams demande exactement 4 joueurs, pas {n}.",
        "pt": "--teams precisa de exatamente 4 jogadores, não {n}.",
    },
    "err.names": {
        "en": "--names gives {names} names for {n} seats.",
        "es": "--names da {names} nombres para {n} asientos.",
        "de": "--names nennt {names} Namen für {n} Plätze.",
        "fr": "--names donne {names} noms pour {n} places.",
        "pt": "--names dá {names} nomes para {n} lugares.",
    },
    "err.lang": {
        "en": "--lang must be one of {langs}, not {lang!r}.",
        "es": "--lang debe ser uno de {langs}, no {lang!r}.",
        "de": "--lang muss eines von {langs} sein, nicht {lang!r}.",
        "fr": "--lang doit être l'un de {langs}, pas {lang!r}.",
        "pt": "--lang deve ser um de {langs}, não {lang!r}.",
    },
    "err.delay": {
        "en": "--delay must be 0 or more seconds.",
        "es": "--delay debe ser 0 segundos o más.",
        "de": "--delay muss 0 Sekunden oder mehr sein.",
        "fr": "--delay doit valoir 0 seconde ou plus.",
        "pt": "--delay deve ser 0 segundos ou mais.",
    },
    "err.resume_conflict": {
        "en": "--resume continues a saved game; {option} cannot be changed.",
        "es": "--resume continúa una partida guardada; {option} no se puede cambiar.",
        "de": "--resume setzt eine gespeicherte Partie fort; {option} lässt sich nicht ändern.",
        "fr": "--resume reprend une partie sauvegardée ; {option} ne peut pas être changé.",
        "pt": "--resume continua uma partida salva; {option} não pode ser mudado.",
    },
    "err.resume_read": {
        "en": "cannot resume {path}: {error}",
        "es": "no se puede reanudar {path}: {error}",
        "de": "{path} lässt sich nicht fortsetzen: {error}",
        "fr": "impossible de reprendre {path} : {error}",
        "pt": "não é possível retomar {path}: {error}",
    },
    "err.save_dir": {
        "en": "cannot save to {path}: {error}",
        "es": "no se puede guardar en {path}: {error}",
        "de": "Speichern in {path} unmöglich: {error}",
        "fr": "impossible de sauvegarder dans {path} : {error}",
        "pt": "não é possível salvar em {path}: {error}",
    },
}


def normalize_lang(lang: str | None) -> str:
    """``lang`` if it is one of :data:`LANGS` (any case, ``pt_BR`` style allowed), else English."""
    if not lang:
        return DEFAULT_LANG
    code = lang.strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    return code if code in LANGS else DEFAULT_LANG


def t(lang: str, key: str, /, **kw: object) -> str:
    """The text of ``key`` in ``lang`` with its ``{fields}`` filled from ``kw``.

    An unknown language falls back to English; an unknown key raises KeyError
    (a programming error, caught by the tests).
    """
    entry = MESSAGES[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**kw) if kw else text


def domain_name(lang: str, d: int | str) -> str:
    """The name of domain ``d`` (0-5 or a letter of ``MRESCU``) in ``lang``."""
    letter = DOMAIN_LETTERS[d] if isinstance(d, int) else d.upper()
    return t(lang, f"domain.{letter}")


def effect_name(lang: str, kind: str) -> str:
    """The rulebook name of an effect, from its notation word (``holybook``, ``attack``)."""
    return t(lang, f"effect.{kind}")


def effect_help(lang: str, kind: str) -> str:
    """One or two sentences saying what an effect does."""
    return t(lang, f"help.{kind}")


__all__ = [
    "DEFAULT_LANG",
    "EFFECT_KINDS",
    "LANGS",
    "MESSAGES",
    "domain_name",
    "effect_help",
    "effect_name",
    "normalize_lang",
    "t",
]
