package view

// Diagram is a sequence diagram's model: the participants in order of
// first appearance, then one item per phase change (a note across every
// participant) and per step (a message). Mermaid text and SVG are both
// drawn from it.
type Diagram struct {
	Participants []Participant
	Items        []Item
}

// Participant is a lifeline: its role (a stable id) and display name.
type Participant struct {
	ID   string // the role, "broker"
	Name string // in the reader's language
}

// Item is a phase note (Note != "") or a message from participant From to
// To (indexes into Participants). Step is the message's 1-based step
// number, and for a note the step it comes before.
type Item struct {
	Note     string
	From, To int
	Label    string // "3. ack pay:evt-1: lost"
	Action   string
	Result   string
	Fault    bool // a bad tone: drawn as a lost message (a cross)
	Tone     Tone
	Step     int
}

// DiagramOf builds the diagram of a trace's rows.
func DiagramOf(rows []Row) Diagram {
	var d Diagram
	index := map[string]int{}
	for _, r := range rows {
		for _, role := range []struct{ id, name string }{{r.FromID, r.From}, {r.ToID, r.To}} {
			if _, ok := index[role.id]; !ok {
				index[role.id] = len(d.Participants)
				d.Participants = append(d.Participants, Participant{ID: role.id, Name: role.name})
			}
		}
	}
	for _, r := range rows {
		if r.PhaseStart {
			d.Items = append(d.Items, Item{Note: r.Phase, Step: r.N})
		}
		d.Items = append(d.Items, Item{
			From: index[r.FromID], To: index[r.ToID],
			Label: r.Label(), Action: r.Action, Result: r.Result,
			Fault: r.Tone.IsBad(), Tone: r.Tone, Step: r.N,
		})
	}
	return d
}
