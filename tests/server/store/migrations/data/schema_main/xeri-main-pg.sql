--
-- PostgreSQL database dump
--

\restrict v71W3VpwYRkubLY0R4TX0hyBs2dXFmoDLiEVbzSswRuiYt7DNSgwSf9haKxOLnz

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: xeri_leases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.xeri_leases (
    table_id character varying(32) NOT NULL,
    owner character varying(40) NOT NULL,
    until double precision NOT NULL
);


--
-- Name: xeri_moves; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.xeri_moves (
    table_id character varying(32) NOT NULL,
    idx integer NOT NULL,
    seat integer NOT NULL,
    card character varying(2) NOT NULL,
    auto character varying(16),
    at double precision NOT NULL
);


--
-- Name: xeri_nodes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.xeri_nodes (
    id character varying(40) NOT NULL,
    until double precision NOT NULL
);


--
-- Name: xeri_results; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.xeri_results (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    name character varying(64) NOT NULL,
    human boolean NOT NULL,
    side integer NOT NULL,
    won boolean NOT NULL,
    points integer NOT NULL,
    xeris integer NOT NULL,
    jack_xeris integer NOT NULL,
    finished_at double precision NOT NULL
);


--
-- Name: xeri_seats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.xeri_seats (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    human boolean NOT NULL,
    bot_level character varying(64),
    name character varying(64),
    token_hash character varying(64),
    "left" boolean NOT NULL
);


--
-- Name: xeri_tables; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.xeri_tables (
    id character varying(32) NOT NULL,
    title character varying(100) NOT NULL,
    status character varying(16) NOT NULL,
    ruleset text NOT NULL,
    turn_timer double precision,
    takeover_after double precision,
    takeover_level character varying(64) NOT NULL,
    private boolean NOT NULL,
    match_seed character varying(24) NOT NULL,
    salt_key character varying(64) NOT NULL,
    first_dealer integer NOT NULL,
    names text,
    created_at double precision NOT NULL,
    started_at double precision,
    finished_at double precision,
    result text,
    record text
);


--
-- Data for Name: xeri_leases; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.xeri_leases (table_id, owner, until) FROM stdin;
\.


--
-- Data for Name: xeri_moves; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.xeri_moves (table_id, idx, seat, card, auto, at) FROM stdin;
JZwi7-fMmEDY	0	0	7D	\N	1796180544.900023
dIXXgHkcDdgf	0	1	9S	\N	1796180544.9043605
JZwi7-fMmEDY	1	1	4D	\N	1796180544.9190419
xVGN8sQ6bpD5	0	1	JH	\N	1796180544.9250724
dIXXgHkcDdgf	1	0	6C	\N	1796180544.925108
JZwi7-fMmEDY	2	0	AC	\N	1796180544.9256432
xVGN8sQ6bpD5	1	0	9C	\N	1796180544.926478
dIXXgHkcDdgf	2	1	5D	\N	1796180544.9265172
JZwi7-fMmEDY	3	1	QS	\N	1796180544.9279754
xVGN8sQ6bpD5	2	1	6D	\N	1796180544.9280012
dIXXgHkcDdgf	3	0	8D	\N	1796180544.9280179
JZwi7-fMmEDY	4	0	KH	\N	1796180544.9297292
xVGN8sQ6bpD5	3	0	9H	\N	1796180544.929752
dIXXgHkcDdgf	4	1	8S	\N	1796180544.9297779
JZwi7-fMmEDY	5	1	2S	\N	1796180544.9310524
xVGN8sQ6bpD5	4	1	KH	\N	1796180544.931082
dIXXgHkcDdgf	5	0	2S	\N	1796180544.9310932
JZwi7-fMmEDY	6	0	6C	\N	1796180544.9319618
xVGN8sQ6bpD5	5	0	AC	\N	1796180544.931984
dIXXgHkcDdgf	6	1	4C	\N	1796180544.9319942
JZwi7-fMmEDY	7	1	6D	\N	1796180544.9333856
xVGN8sQ6bpD5	6	1	5S	\N	1796180544.9334118
dIXXgHkcDdgf	7	0	QS	\N	1796180544.933429
JZwi7-fMmEDY	8	0	KD	\N	1796180544.9353771
xVGN8sQ6bpD5	7	0	JD	\N	1796180544.935473
dIXXgHkcDdgf	8	1	KH	\N	1796180544.9354877
JZwi7-fMmEDY	9	1	TC	\N	1796180544.9367943
xVGN8sQ6bpD5	8	1	QD	\N	1796180544.9368181
dIXXgHkcDdgf	9	0	3D	\N	1796180544.9368305
JZwi7-fMmEDY	10	0	8C	\N	1796180544.9379292
xVGN8sQ6bpD5	9	0	3D	\N	1796180544.9380167
dIXXgHkcDdgf	10	1	3C	\N	1796180544.9380577
JZwi7-fMmEDY	11	1	4C	\N	1796180544.9394531
xVGN8sQ6bpD5	10	1	5C	\N	1796180544.9395466
dIXXgHkcDdgf	11	0	JC	\N	1796180544.9396265
JZwi7-fMmEDY	12	0	7C	\N	1796180544.940937
xVGN8sQ6bpD5	11	0	TH	\N	1796180544.94096
dIXXgHkcDdgf	12	1	JD	\N	1796180544.9409883
JZwi7-fMmEDY	13	1	JC	\N	1796180544.9425504
xVGN8sQ6bpD5	12	1	TC	\N	1796180544.9425936
dIXXgHkcDdgf	13	0	4D	\N	1796180544.9426146
JZwi7-fMmEDY	14	0	2C	\N	1796180544.9438107
xVGN8sQ6bpD5	13	0	KS	\N	1796180544.9438305
dIXXgHkcDdgf	14	1	JS	\N	1796180544.9438567
JZwi7-fMmEDY	15	1	9D	\N	1796180544.9450436
xVGN8sQ6bpD5	14	1	QH	\N	1796180544.945062
dIXXgHkcDdgf	15	0	7C	\N	1796180544.945073
JZwi7-fMmEDY	16	0	3H	\N	1796180544.9466667
xVGN8sQ6bpD5	15	0	4C	\N	1796180544.94669
dIXXgHkcDdgf	16	1	6S	\N	1796180544.9467065
JZwi7-fMmEDY	17	1	7H	\N	1796180544.9477732
xVGN8sQ6bpD5	16	1	8H	\N	1796180544.947791
dIXXgHkcDdgf	17	0	9D	\N	1796180544.9481447
JZwi7-fMmEDY	18	0	TH	\N	1796180544.9495893
xVGN8sQ6bpD5	17	0	9S	\N	1796180544.9496212
dIXXgHkcDdgf	18	1	2H	\N	1796180544.9496534
JZwi7-fMmEDY	19	1	TS	\N	1796180544.9507585
xVGN8sQ6bpD5	18	1	2C	\N	1796180544.9507961
dIXXgHkcDdgf	19	0	4H	\N	1796180544.9511962
JZwi7-fMmEDY	20	0	JH	\N	1796180544.9522917
xVGN8sQ6bpD5	19	0	TS	\N	1796180544.9523282
dIXXgHkcDdgf	20	1	QD	\N	1796180544.9523413
JZwi7-fMmEDY	21	1	6S	\N	1796180544.9537172
xVGN8sQ6bpD5	20	1	QS	\N	1796180544.9537463
dIXXgHkcDdgf	21	0	AH	\N	1796180544.9537568
JZwi7-fMmEDY	22	0	KS	\N	1796180544.955358
xVGN8sQ6bpD5	21	0	6C	\N	1796180544.9553916
dIXXgHkcDdgf	22	1	KC	\N	1796180544.9554064
JZwi7-fMmEDY	23	1	4H	\N	1796180544.9569995
xVGN8sQ6bpD5	22	1	2H	\N	1796180544.9570248
dIXXgHkcDdgf	23	0	KS	\N	1796180544.95705
JZwi7-fMmEDY	24	0	TD	\N	1796180544.9584844
xVGN8sQ6bpD5	23	0	5D	\N	1796180544.9585097
dIXXgHkcDdgf	24	1	5C	\N	1796180544.9585204
JZwi7-fMmEDY	25	1	9H	\N	1796180544.9597044
xVGN8sQ6bpD5	24	1	KD	\N	1796180544.95973
dIXXgHkcDdgf	25	0	7H	\N	1796180544.9597695
JZwi7-fMmEDY	26	0	9C	\N	1796180544.961265
xVGN8sQ6bpD5	25	0	AD	\N	1796180544.961289
dIXXgHkcDdgf	26	1	6D	\N	1796180544.9612985
JZwi7-fMmEDY	27	1	5D	\N	1796180544.9623926
xVGN8sQ6bpD5	26	1	8D	\N	1796180544.9629476
dIXXgHkcDdgf	27	0	9C	\N	1796180544.9629745
JZwi7-fMmEDY	28	0	QC	\N	1796180544.963871
xVGN8sQ6bpD5	27	0	AS	\N	1796180544.964522
dIXXgHkcDdgf	28	1	QH	\N	1796180544.9645567
JZwi7-fMmEDY	29	1	QH	\N	1796180544.96517
xVGN8sQ6bpD5	28	1	2D	\N	1796180544.9664874
dIXXgHkcDdgf	29	0	TD	\N	1796180544.9665132
JZwi7-fMmEDY	30	0	4S	\N	1796180544.9665284
xVGN8sQ6bpD5	29	0	7S	\N	1796180544.9676023
dIXXgHkcDdgf	30	1	TC	\N	1796180544.9676452
JZwi7-fMmEDY	31	1	2H	\N	1796180544.967665
xVGN8sQ6bpD5	30	1	4H	\N	1796180544.9687996
dIXXgHkcDdgf	31	0	TH	\N	1796180544.9688282
JZwi7-fMmEDY	32	0	8H	\N	1796180544.9689996
xVGN8sQ6bpD5	31	0	AH	\N	1796180544.9701746
dIXXgHkcDdgf	32	1	5S	\N	1796180544.9702048
JZwi7-fMmEDY	33	1	6H	\N	1796180544.9702158
xVGN8sQ6bpD5	32	1	6S	\N	1796180544.971515
dIXXgHkcDdgf	33	0	AC	\N	1796180544.9715338
JZwi7-fMmEDY	34	0	5H	\N	1796180544.9715433
xVGN8sQ6bpD5	33	0	2S	\N	1796180544.972598
dIXXgHkcDdgf	34	1	3H	\N	1796180544.9726305
JZwi7-fMmEDY	35	1	QD	\N	1796180544.9726567
xVGN8sQ6bpD5	34	1	4S	\N	1796180544.9738069
dIXXgHkcDdgf	35	0	2C	\N	1796180544.9738383
JZwi7-fMmEDY	36	0	2D	\N	1796180544.9738555
xVGN8sQ6bpD5	35	0	3S	\N	1796180544.974997
dIXXgHkcDdgf	36	1	2D	\N	1796180544.9750383
JZwi7-fMmEDY	37	1	JS	\N	1796180544.9750555
xVGN8sQ6bpD5	36	1	JS	\N	1796180544.976164
dIXXgHkcDdgf	37	0	3S	\N	1796180544.9761865
JZwi7-fMmEDY	38	0	JD	\N	1796180544.976198
xVGN8sQ6bpD5	37	0	JC	\N	1796180544.9773796
dIXXgHkcDdgf	38	1	KD	\N	1796180544.9774003
JZwi7-fMmEDY	39	1	AD	\N	1796180544.9778666
xVGN8sQ6bpD5	38	1	3C	\N	1796180544.979406
dIXXgHkcDdgf	39	0	TS	\N	1796180544.9794433
JZwi7-fMmEDY	40	0	3D	\N	1796180544.9794626
xVGN8sQ6bpD5	39	0	6H	\N	1796180544.9805884
dIXXgHkcDdgf	40	1	4S	\N	1796180544.9806101
JZwi7-fMmEDY	41	1	9S	\N	1796180544.980621
xVGN8sQ6bpD5	40	1	3H	\N	1796180544.9829655
dIXXgHkcDdgf	41	0	8C	\N	1796180544.9829905
JZwi7-fMmEDY	42	0	5C	\N	1796180544.983001
xVGN8sQ6bpD5	41	0	8C	\N	1796180544.984126
dIXXgHkcDdgf	42	1	8H	\N	1796180544.984156
JZwi7-fMmEDY	43	1	5S	\N	1796180544.984168
xVGN8sQ6bpD5	42	1	7H	\N	1796180544.9857807
dIXXgHkcDdgf	43	0	7S	\N	1796180544.9857998
JZwi7-fMmEDY	44	0	8S	\N	1796180544.9858096
xVGN8sQ6bpD5	43	0	7D	\N	1796180544.9870768
dIXXgHkcDdgf	44	1	AS	\N	1796180544.9870975
JZwi7-fMmEDY	45	1	AS	\N	1796180544.9871063
xVGN8sQ6bpD5	44	1	QC	\N	1796180544.9885166
dIXXgHkcDdgf	45	0	6H	\N	1796180544.9885464
JZwi7-fMmEDY	46	0	3C	\N	1796180544.988557
xVGN8sQ6bpD5	45	0	7C	\N	1796180544.99066
dIXXgHkcDdgf	46	1	QC	\N	1796180544.9906774
JZwi7-fMmEDY	47	1	AH	\N	1796180544.99118
xVGN8sQ6bpD5	46	1	4D	\N	1796180545.0032668
dIXXgHkcDdgf	47	0	JH	\N	1796180545.0037143
xVGN8sQ6bpD5	47	0	KC	\N	1796180545.0083618
UNVghNy0qGiQ	0	1	6C	\N	1796180545.0226402
UNVghNy0qGiQ	1	0	5H	\N	1796180545.0338128
UNVghNy0qGiQ	2	1	9D	\N	1796180545.035196
UNVghNy0qGiQ	3	0	4D	\N	1796180545.0461864
UNVghNy0qGiQ	4	1	4S	\N	1796180545.0486474
UNVghNy0qGiQ	5	0	QC	\N	1796180545.059653
UNVghNy0qGiQ	6	1	AH	\N	1796180545.063095
\.


--
-- Data for Name: xeri_nodes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.xeri_nodes (id, until) FROM stdin;
\.


--
-- Data for Name: xeri_results; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.xeri_results (table_id, seat, name, human, side, won, points, xeris, jack_xeris, finished_at) FROM stdin;
JZwi7-fMmEDY	0	Bot (easy)	f	0	f	5	0	0	1796180544.9907815
JZwi7-fMmEDY	1	Bot (medium)	f	1	t	20	0	0	1796180544.9907815
dIXXgHkcDdgf	0	Bot (easy)	f	0	f	7	0	0	1796180545.0033786
dIXXgHkcDdgf	1	Bot (medium)	f	1	t	38	1	1	1796180545.0033786
xVGN8sQ6bpD5	0	Bot (easy)	f	0	f	6	0	0	1796180545.0080335
xVGN8sQ6bpD5	1	Bot (medium)	f	1	t	19	0	0	1796180545.0080335
\.


--
-- Data for Name: xeri_seats; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.xeri_seats (table_id, seat, human, bot_level, name, token_hash, "left") FROM stdin;
JZwi7-fMmEDY	0	f	easy	\N	\N	f
JZwi7-fMmEDY	1	f	medium	\N	\N	f
dIXXgHkcDdgf	0	f	easy	\N	\N	f
dIXXgHkcDdgf	1	f	medium	\N	\N	f
xVGN8sQ6bpD5	0	f	easy	\N	\N	f
xVGN8sQ6bpD5	1	f	medium	\N	\N	f
UNVghNy0qGiQ	0	t	\N	Ann	6db7fb8ce822eec65dc55a14993e1f9b082eaf31d6866fdbc83b81dc53531870	f
UNVghNy0qGiQ	1	f	medium	\N	\N	f
x4GaP5glxM2v	0	t	\N	Bob	ca8b1ea1ed19b93d67f3af8774755f061053cd84ff0244683bcc60bccfb23d83	f
x4GaP5glxM2v	1	t	\N	\N	\N	f
\.


--
-- Data for Name: xeri_tables; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.xeri_tables (id, title, status, ruleset, turn_timer, takeover_after, takeover_level, private, match_seed, salt_key, first_dealer, names, created_at, started_at, finished_at, result, record) FROM stdin;
JZwi7-fMmEDY	fixture	finished	{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"}	\N	30	easy	f	6565352478728607431	15caacc260ddc51d074fd40848545434e0dbf19f725b8d66e45caf650f499c42	1	["Bot (easy)","Bot (medium)"]	1796180544.891659	1796180544.891686	1796180544.9907815	{"scores":[5,20],"round_wins":[0,1],"winner":1,"winners":["Bot (medium)"],"rounds":1,"bots":["easy","medium"]}	{"format":"xeri-record","version":1,"ruleset":{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"},"seats":[{"seat":0,"name":"Bot (easy)","side":0},{"seat":1,"name":"Bot (medium)","side":1}],"seed":6565352478728607431,"first_dealer":1,"rounds":[{"number":1,"dealer":1,"seed":17240844797200738056,"deal":{"hands":[["8C","KH","7D","AC","KD","6C"],["4D","TC","6D","2S","4C","QS"]],"pile":["KC","3S","8D","7S"],"face_down":[],"talon":["3H","2C","JH","KS","7C","TH","4H","JC","7H","6S","9D","TS","9C","QC","5H","TD","4S","8H","QD","QH","6H","2H","5D","9H","2D","5C","3D","8S","3C","JD","5S","9S","AS","JS","AH","AD"],"exposed":null,"redealt":[],"slipped":[]},"moves":["7D","4D","AC","QS","KH","2S","6C","6D","KD","TC","8C","4C","7C","JC","2C","9D","3H","7H","TH","TS","JH","6S","KS","4H","TD","9H","9C","5D","QC","QH","4S","2H","8H","6H","5H","QD","2D","JS","JD","AD","3D","9S","5C","5S","8S","AS","3C","AH"],"scores":[{"side":0,"cards":12,"xeris":0,"jack_xeris":0,"lines":[{"label":"Kings","points":2,"cards":["KC","KS"]},{"label":"Jacks","points":1,"cards":["JH"]},{"label":"Tens","points":1,"cards":["TD"]},{"label":"good 10 (10♦)","points":1,"cards":["TD"]}],"total":5},{"side":1,"cards":40,"xeris":0,"jack_xeris":0,"lines":[{"label":"most cards (40)","points":3,"cards":[]},{"label":"Aces","points":4,"cards":["AC","AD","AH","AS"]},{"label":"Kings","points":2,"cards":["KD","KH"]},{"label":"Queens","points":4,"cards":["QC","QD","QH","QS"]},{"label":"Jacks","points":3,"cards":["JC","JD","JS"]},{"label":"Tens","points":3,"cards":["TC","TH","TS"]},{"label":"good 2 (2♣)","points":1,"cards":["2C"]}],"total":20}]}],"result":{"scores":[5,20],"round_wins":[0,1],"target":null,"winner":1,"over":true},"fairness":{"scheme":"xeri-v2","match":{"commitment":"273f39f1860a01d70a23111cb4209ec9ed628966a5abef7bebba8bb3493ebe66","salt":"60c9643363f81cc10215f8c7694df1cf4f6f83bc6d6b7fab93e4157c525abd43"},"rounds":[{"round":1,"commitment":"f98a319b3f311829ca7b0ad338dbe34216ad71bbb76394994c2e69cf0b60c3f4","salt":"5c7573ef1880c4685531120d1e7bbeab866a547c309aff96662f4ca7c502f47c"}]},"table":{"id":"JZwi7-fMmEDY","title":"fixture","bots":{"0":"easy","1":"medium"}}}
dIXXgHkcDdgf	fixture	finished	{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"}	\N	30	easy	f	10039474740172482558	ebb14040e5df1ccf339f8fccc4c89ded3366b9e1e5362d62379667f1b4fb7725	0	["Bot (easy)","Bot (medium)"]	1796180544.8981369	1796180544.8981538	1796180545.0033786	{"scores":[7,38],"round_wins":[0,1],"winner":1,"winners":["Bot (medium)"],"rounds":1,"bots":["easy","medium"]}	{"format":"xeri-record","version":1,"ruleset":{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"},"seats":[{"seat":0,"name":"Bot (easy)","side":0},{"seat":1,"name":"Bot (medium)","side":1}],"seed":10039474740172482558,"first_dealer":0,"rounds":[{"number":1,"dealer":0,"seed":10248359458689412196,"deal":{"hands":[["JC","6C","8D","QS","2S","3D"],["KH","4C","8S","3C","5D","9S"]],"pile":["AD","5H","7D","9H"],"face_down":[],"talon":["JD","2H","JS","6S","QD","KC","9D","KS","4H","4D","AH","7C","6D","QH","5S","3H","TC","5C","7H","TH","AC","TD","2C","9C","AS","QC","4S","2D","8H","KD","TS","6H","3S","JH","7S","8C"],"exposed":null,"redealt":[],"slipped":[]},"moves":["9S","6C","5D","8D","8S","2S","4C","QS","KH","3D","3C","JC","JD","4D","JS","7C","6S","9D","2H","4H","QD","AH","KC","KS","5C","7H","6D","9C","QH","TD","TC","TH","5S","AC","3H","2C","2D","3S","KD","TS","4S","8C","8H","7S","AS","6H","QC","JH"],"scores":[{"side":0,"cards":14,"xeris":0,"jack_xeris":0,"lines":[{"label":"Aces","points":2,"cards":["AH","AS"]},{"label":"Kings","points":2,"cards":["KC","KS"]},{"label":"Queens","points":2,"cards":["QC","QD"]},{"label":"Jacks","points":1,"cards":["JH"]}],"total":7},{"side":1,"cards":38,"xeris":0,"jack_xeris":1,"lines":[{"label":"most cards (38)","points":3,"cards":[]},{"label":"Aces","points":2,"cards":["AC","AD"]},{"label":"Kings","points":2,"cards":["KD","KH"]},{"label":"Queens","points":2,"cards":["QH","QS"]},{"label":"Jacks","points":3,"cards":["JC","JD","JS"]},{"label":"Tens","points":4,"cards":["TC","TD","TH","TS"]},{"label":"good 10 (10♦)","points":1,"cards":["TD"]},{"label":"good 2 (2♣)","points":1,"cards":["2C"]},{"label":"Jack xeri x1","points":20,"cards":["JC"]}],"total":38}]}],"result":{"scores":[7,38],"round_wins":[0,1],"target":null,"winner":1,"over":true},"fairness":{"scheme":"xeri-v2","match":{"commitment":"7518348342489bfd67f20860c9d8744d2a4a457a337da1e8a798b6eda78d056d","salt":"4390ac40c9cfc74e707bdc7e003285ee3222f8df33bff3301ac54f578e324f50"},"rounds":[{"round":1,"commitment":"60c4ddc7f898ddac88445a893914901effb26e74775263685fb8cf4c43d11b68","salt":"df2fd263395c5e79442ce5a00f10f94ca80c9e54f4187c99b7643fcce1e42204"}]},"table":{"id":"dIXXgHkcDdgf","title":"fixture","bots":{"0":"easy","1":"medium"}}}
xVGN8sQ6bpD5	fixture	finished	{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"}	\N	30	easy	t	11440985266753765384	a913e624928161451afd2edf9c8cd055ab6ff6dd72104789b84dc9b8486136d5	0	["Bot (easy)","Bot (medium)"]	1796180544.9030814	1796180544.9030924	1796180545.0080335	{"scores":[6,19],"round_wins":[0,1],"winner":1,"winners":["Bot (medium)"],"rounds":1,"bots":["easy","medium"]}	{"format":"xeri-record","version":1,"ruleset":{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"},"seats":[{"seat":0,"name":"Bot (easy)","side":0},{"seat":1,"name":"Bot (medium)","side":1}],"seed":11440985266753765384,"first_dealer":0,"rounds":[{"number":1,"dealer":0,"seed":412752517951958183,"deal":{"hands":[["9H","JD","9C","TH","3D","AC"],["6D","QD","5C","5S","KH","JH"]],"pile":["TD","8S","9D","5H"],"face_down":[],"talon":["8H","2H","QS","TC","QH","2C","4C","5D","6C","KS","9S","TS","2D","KD","4S","4H","6S","8D","AS","3S","7S","AH","AD","2S","4D","7H","3C","3H","QC","JS","7C","7D","8C","6H","JC","KC"],"exposed":null,"redealt":[],"slipped":[]},"moves":["JH","9C","6D","9H","KH","AC","5S","JD","QD","3D","5C","TH","TC","KS","QH","4C","8H","9S","2C","TS","QS","6C","2H","5D","KD","AD","8D","AS","2D","7S","4H","AH","6S","2S","4S","3S","JS","JC","3C","6H","3H","8C","7H","7D","QC","7C","4D","KC"],"scores":[{"side":0,"cards":18,"xeris":0,"jack_xeris":0,"lines":[{"label":"Aces","points":1,"cards":["AC"]},{"label":"Kings","points":2,"cards":["KC","KH"]},{"label":"Queens","points":1,"cards":["QC"]},{"label":"Jacks","points":2,"cards":["JC","JD"]}],"total":6},{"side":1,"cards":34,"xeris":0,"jack_xeris":0,"lines":[{"label":"most cards (34)","points":3,"cards":[]},{"label":"Aces","points":3,"cards":["AD","AH","AS"]},{"label":"Kings","points":2,"cards":["KD","KS"]},{"label":"Queens","points":3,"cards":["QD","QH","QS"]},{"label":"Jacks","points":2,"cards":["JH","JS"]},{"label":"Tens","points":4,"cards":["TC","TD","TH","TS"]},{"label":"good 10 (10♦)","points":1,"cards":["TD"]},{"label":"good 2 (2♣)","points":1,"cards":["2C"]}],"total":19}]}],"result":{"scores":[6,19],"round_wins":[0,1],"target":null,"winner":1,"over":true},"fairness":{"scheme":"xeri-v2","match":{"commitment":"569da6a4ebaa260bf0d572074cbde5c9279b143a07294c6daf510db36c82df03","salt":"ed7988f8c634b9e9a65e452a234a599c508d2b80e2f6e9b922c7246f2a51f22e"},"rounds":[{"round":1,"commitment":"a3b488b22d512e8b1c92a134fb16d4af3bbfa33d1038b6ae490bb716bdc4c96e","salt":"0abd92a0ddfd245e30abb87bb77f799e1a5e5e941785f4b0216e7dbc5043c060"}]},"table":{"id":"xVGN8sQ6bpD5","title":"fixture","bots":{"0":"easy","1":"medium"}}}
UNVghNy0qGiQ		playing	{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"}	\N	30	easy	f	78481598399072196	cc59645a1ca02018bea97fc78f52aa33022ce3d2020eb28605885fa7b1e92771	0	["Ann","Bot (medium)"]	1796180545.01923	1796180545.0192714	\N	\N	\N
x4GaP5glxM2v		waiting	{"name":"classic","players":2,"hand_size":6,"pile_size":4,"pile_face_down":0,"initial_pile":"redeal","jack_xeri_any":false,"xeri_points":10,"jack_xeri_points":20,"scoring":"xeri","two_of_spades":false,"most_cards_points":3,"exposed_bottom":false,"last_card_xeri":true,"match_end":"rounds","rounds":1,"target":151,"tie_rule":"raise"}	\N	30	easy	f	9322516613571153441	e76e068a85187262f0b193fe082ed2610ede6287dad9e0a47c2eaaebe76e2a78	1	\N	1796180545.0609343	\N	\N	\N	\N
\.


--
-- Name: xeri_leases xeri_leases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.xeri_leases
    ADD CONSTRAINT xeri_leases_pkey PRIMARY KEY (table_id);


--
-- Name: xeri_moves xeri_moves_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.xeri_moves
    ADD CONSTRAINT xeri_moves_pkey PRIMARY KEY (table_id, idx);


--
-- Name: xeri_nodes xeri_nodes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.xeri_nodes
    ADD CONSTRAINT xeri_nodes_pkey PRIMARY KEY (id);


--
-- Name: xeri_results xeri_results_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.xeri_results
    ADD CONSTRAINT xeri_results_pkey PRIMARY KEY (table_id, seat);


--
-- Name: xeri_seats xeri_seats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.xeri_seats
    ADD CONSTRAINT xeri_seats_pkey PRIMARY KEY (table_id, seat);


--
-- Name: xeri_tables xeri_tables_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.xeri_tables
    ADD CONSTRAINT xeri_tables_pkey PRIMARY KEY (id);


--
-- Name: ix_xeri_results_name; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_xeri_results_name ON public.xeri_results USING btree (name);


--
-- Name: ix_xeri_tables_finished_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_xeri_tables_finished_at ON public.xeri_tables USING btree (finished_at);


--
-- Name: ix_xeri_tables_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_xeri_tables_status ON public.xeri_tables USING btree (status);


--
-- PostgreSQL database dump complete
--

\unrestrict v71W3VpwYRkubLY0R4TX0hyBs2dXFmoDLiEVbzSswRuiYt7DNSgwSf9haKxOLnz

