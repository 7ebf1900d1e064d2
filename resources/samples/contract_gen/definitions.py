# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Article 1: definitions and rules of interpretation."""

DEFINITIONS = [
    ("Affiliate", "any entity that directly or indirectly controls, is controlled by, or is under common control with a Party, where control means ownership of more than fifty percent of the voting rights"),
    ("Agreement", "this Master Supply and Services Agreement, including its Schedules, as amended from time to time in accordance with its terms"),
    ("Applicable Law", "all laws, regulations, binding guidance and decisions of Competent Authorities applicable to a Party or to the Products, including the Medical Device Regulation"),
    ("Batch", "a defined quantity of Product manufactured in one continuous process cycle from the same raw material heat and identified by a unique batch number"),
    ("Business Day", "a day other than a Saturday, Sunday or public holiday in Bremen, Germany, or in Dunfermline, Scotland"),
    ("Buyer Materials", "all materials, drawings, data and equipment provided by or on behalf of the Buyer to the Supplier"),
    ("Certificate of Conformity", "a document issued by the Supplier for each Batch confirming that the Batch meets the Specifications, in the format set out in Schedule 5"),
    ("Change Request", "a written request for a change to a Product, process, material, site or sub-supplier submitted under Article 13"),
    ("Competent Authority", "any governmental or regulatory body, notified body or agency having jurisdiction over the Products or the Parties"),
    ("Confidential Information", "all information disclosed by one Party to the other in connection with this Agreement that is marked as confidential or would reasonably be understood to be confidential"),
    ("Consignment Stock", "stock of Products held by the Supplier at or near a Buyer site, remaining the property of the Supplier until withdrawn by the Buyer"),
    ("Contract Year", "each period of twelve months beginning on the Effective Date or an anniversary of it"),
    ("Defect", "any failure of a Product to conform to the Specifications, the warranties in Article 16 or Applicable Law"),
    ("Delivery Date", "the date on which a Product is to be delivered as specified in the applicable Purchase Order or call-off"),
    ("Deliverables", "all documents, reports, data and other outputs produced by the Supplier in the course of performing the Services"),
    ("Drawings", "the technical drawings identified in Schedule 4, in the revision specified in the applicable Purchase Order"),
    ("Effective Date", "the date on which this Agreement has been signed by both Parties"),
    ("Field Safety Corrective Action", "an action taken by the Buyer to reduce a risk of death or serious deterioration in health associated with a device already placed on the market"),
    ("First Article Inspection", "the complete dimensional and functional inspection of the first parts produced from new or modified tooling or processes"),
    ("Forecast", "the Buyer's non-binding rolling estimate of its requirements for Products, as described in Article 4"),
    ("Good Manufacturing Practice", "the practices and standards for manufacturing medical device components that are generally accepted in the industry"),
    ("Intellectual Property Rights", "patents, utility models, designs, copyrights, database rights, trade secrets and all similar rights anywhere in the world"),
    ("Joint Steering Committee", "the committee established under Article 28 consisting of senior representatives of both Parties"),
    ("Key Performance Indicators", "the measures of performance set out in Schedule 3"),
    ("Lead Time", "the period between the receipt of a Purchase Order by the Supplier and the Delivery Date, as listed per part number in Schedule 1"),
    ("Losses", "all losses, damages, liabilities, costs and expenses, including reasonable legal fees"),
    ("Medical Device Regulation", "Regulation (EU) 2017/745 on medical devices, as amended"),
    ("Nonconformity", "any failure to fulfil a requirement of this Agreement, the Specifications or the Quality Agreement"),
    ("Personal Data", "has the meaning given in the General Data Protection Regulation (EU) 2016/679"),
    ("Prices", "the prices for the Products and Services set out in Schedule 1, as adjusted in accordance with Article 5"),
    ("Products", "the components and assemblies listed in Schedule 1, manufactured in accordance with the Specifications"),
    ("Purchase Order", "a written order for Products or Services issued by the Buyer or an Affiliate under this Agreement"),
    ("Quality Agreement", "the quality agreement between the Parties contained in Schedule 5, which sets out the quality responsibilities of each Party"),
    ("Recall", "any removal or correction of a finished device containing a Product from the market, whether voluntary or required by a Competent Authority"),
    ("Safety Stock", "the quantity of finished Products the Supplier holds available for immediate delivery in accordance with Article 25"),
    ("Services", "the engineering, testing, calibration, repair and support services described in Schedule 3"),
    ("Specifications", "the technical requirements for a Product set out in the Drawings, Schedule 4 and the Quality Agreement"),
    ("Sub-supplier", "any third party that supplies materials, components or processing services to the Supplier for incorporation in the Products"),
    ("Term", "the period during which this Agreement is in force, including any renewal period"),
    ("Tooling", "all moulds, dies, fixtures, gauges and special equipment used exclusively for manufacturing or testing the Products"),
]

INTERPRETATION = [
    "Headings are for convenience only and do not affect the interpretation of this Agreement.",
    "Words in the singular include the plural and vice versa.",
    "References to Articles, Sections and Schedules are to the articles, sections and schedules of this Agreement.",
    "The words \"including\" and \"in particular\" are illustrative and do not limit the generality of the preceding words.",
    "A reference to a statute or standard is a reference to it as amended, extended or re-enacted from time to time.",
    "A reference to writing includes e-mail, but not text messages or messages sent through instant messaging services.",
    "Where a period is expressed in days, it means calendar days unless Business Days are specified.",
    "No rule of construction applies to the disadvantage of a Party on the basis that the Party prepared this Agreement.",
]


def article_one():
    """Blocks for Article 1."""
    blocks = ["## Article 1 - Definitions and Interpretation", "### 1.1 Definitions",
              "In this Agreement, the following capitalised terms have the meanings set out below. "
              "Other capitalised terms are defined where they first appear."]
    chunk = []
    for term, meaning in DEFINITIONS:
        chunk.append(f"- **\"{term}\"** means {meaning};")
        if len(chunk) == 8:
            blocks.append("\n".join(chunk))
            chunk = []
    if chunk:
        blocks.append("\n".join(chunk))
    blocks.append("### 1.2 Interpretation")
    blocks.append("In this Agreement, unless the context requires otherwise:")
    blocks.append("\n".join(f"({chr(97 + i)}) {s}" for i, s in enumerate(INTERPRETATION)))
    return blocks
